/**
 * The job runner on the server and PGlite: limits, failures, time-outs; one shared queue that
 * several runners claim from, each job once; a stopped runner's jobs given back; a killed
 * server's job run again by another runner, and interrupted once its attempts are used up.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobRunner, type Job } from "@/lib/jobs/runner";
import type { PostgresStore } from "@/lib/store/postgres-store";
import { STORE_KINDS, freshServerDatabase } from "../helpers/databases";
import { startTs } from "../helpers/processes";

const SQL_KINDS = STORE_KINDS.filter((kind) => kind.name !== "memory");

async function settled(runner: JobRunner, jobId: string): Promise<Job> {
  await expect.poll(async () => (await runner.get(jobId))?.status, { timeout: 20_000 }).toMatch(/done|failed|interrupted/);
  return (await runner.get(jobId)) as Job;
}

describe.each(SQL_KINDS)("job runner: $name", (kind) => {
  let store: PostgresStore;
  beforeAll(async () => {
    store = (await kind.open()) as PostgresStore;
  });
  afterAll(async () => {
    await store.close();
  });

  it("runs jobs at most N at a time and records their output", async () => {
    let now = 0;
    let peak = 0;
    const runner = new JobRunner(store.client, {
      concurrency: 2,
      handlers: {
        work: async (input) => {
          now += 1;
          peak = Math.max(peak, now);
          await new Promise((done) => setTimeout(done, 150));
          now -= 1;
          return { doubled: (input as { n: number }).n * 2 };
        },
      },
    });
    const jobs = await Promise.all([1, 2, 3, 4, 5].map((n) => runner.submit("work", { n })));
    expect(jobs.every((job) => job.status === "queued")).toBe(true);
    const finished = await Promise.all(jobs.map((job) => settled(runner, job.jobId)));
    expect(finished.map((job) => [job.status, job.output])).toEqual([1, 2, 3, 4, 5].map((n) => ["done", { doubled: n * 2 }]));
    expect(peak).toBe(2);
    expect(finished.every((job) => job.startedAt && job.finishedAt)).toBe(true);
    await runner.stop();
  });

  it("records a failing job's error and stops a job over its time limit", async () => {
    const runner = new JobRunner(store.client, {
      timeoutMs: 300,
      handlers: { boom: async () => Promise.reject(new Error("model not registered")), slow: () => new Promise(() => undefined) },
    });
    const failed = await settled(runner, (await runner.submit("boom", {})).jobId);
    expect(failed).toMatchObject({ status: "failed", error: "model not registered" });
    const slow = await settled(runner, (await runner.submit("slow", {})).jobId);
    expect(slow.status).toBe("failed");
    expect(slow.error).toContain("ran longer than");
    await expect(runner.submit("unknown-kind", {})).rejects.toMatchObject({ code: "bad_input" });
    await runner.stop();
  });

  it("shares one queue: jobs submitted anywhere run once each, on whichever runner claims them", async () => {
    const runs = new Map<string, string[]>();
    const handler =
      (name: string) =>
      async (_input: unknown, { jobId }: { jobId: string }) => {
        runs.set(jobId, [...(runs.get(jobId) ?? []), name]);
        await new Promise((done) => setTimeout(done, 5));
        return name;
      };
    const submitter = new JobRunner(store.client, { handlers: { noop: handler("submitter") }, runJobs: false });
    const jobs = await Promise.all(Array.from({ length: 40 }, (_, n) => submitter.submit("noop", { n })));
    const runners = ["a", "b"].map((name) => new JobRunner(store.client, { handlers: { noop: handler(name) }, concurrency: 3, pollMs: 50 }));
    const finished = await Promise.all(jobs.map((job) => settled(submitter, job.jobId)));
    await Promise.all(runners.map((runner) => runner.stop()));
    expect(finished.map((job) => [job.status, job.attempts])).toEqual(jobs.map(() => ["done", 1]));
    expect([...runs.values()].filter((names) => names.length !== 1)).toEqual([]);
    expect(runs.size).toBe(40);
    expect([...runs.values()].flat()).not.toContain("submitter");
    expect(finished.every((job) => job.output === runs.get(job.jobId)?.[0])).toBe(true);
  });

  it("gives a stopping runner's unfinished jobs back to the queue without counting the attempt", async () => {
    const stopping = new JobRunner(store.client, {
      handlers: { wait: (_input, { signal }) => new Promise((_, fail) => signal.addEventListener("abort", () => fail(signal.reason))) },
      pollMs: 50,
    });
    const job = await stopping.submit("wait", {});
    await expect.poll(async () => (await stopping.get(job.jobId))?.status).toBe("running");
    await stopping.stop({ graceMs: 50 });
    expect(await stopping.get(job.jobId)).toMatchObject({ status: "queued", attempts: 0, owner: null });
    const next = new JobRunner(store.client, { handlers: { wait: async (_input, { attempt }) => ({ attempt }) }, pollMs: 50 });
    expect(await settled(next, job.jobId)).toMatchObject({ status: "done", attempts: 1, output: { attempt: 1 } });
    await next.stop();
  });

  it("interrupts a dead runner's job once its attempts are used up", async () => {
    await store.client.query(
      `INSERT INTO jobs (job_id, kind, status, input, owner, attempts, max_attempts, heartbeat_at) VALUES ('job-spent', 'spent', 'running', '{}', 'gone-1', 2, 2, now() - interval '1 hour'), ('job-again', 'spent', 'running', '{}', 'gone-1', 1, 2, now() - interval '1 hour')`,
    );
    const reaper = new JobRunner(store.client, { handlers: {}, runJobs: false, staleAfterMs: 1_000, backoffMs: 60_000 });
    expect(await reaper.requeueStale()).toEqual({ requeued: ["job-again"], interrupted: ["job-spent"] });
    expect(await reaper.get("job-spent")).toMatchObject({ status: "interrupted", owner: null, error: expect.stringContaining("server stopped") });
    expect((await reaper.get("job-spent"))?.finishedAt).not.toBeNull();
    expect(await reaper.get("job-again")).toMatchObject({ status: "queued", attempts: 1, error: expect.stringContaining("attempt 1 of 2, runner gone-1") });
    // Requeued once: a second pass finds nothing.
    expect(await reaper.requeueStale()).toEqual({ requeued: [], interrupted: [] });
    await reaper.stop();
  });
});

describe("job runner across a server crash", () => {
  it("runs the job of a killed server again on another runner, as attempt 2", async () => {
    const database = await freshServerDatabase();
    const child = startTs("tests/fixtures/job-child.ts", [database.url]);
    const jobId = (await child.waitFor(/^accepted /)).split(" ")[1] as string;
    child.process.kill("SIGKILL");
    await child.exited;
    const { openStore } = await import("@/lib/store");
    const store = await openStore({ url: database.url });
    const killedAt = Date.now();
    const runner = new JobRunner(store.client, {
      handlers: { forever: async (input, { attempt }) => ({ input, attempt }) },
      heartbeatMs: 200,
      staleAfterMs: 600,
      backoffMs: 100,
      pollMs: 100,
    });
    expect((await runner.get(jobId))?.status).toBe("running");
    const job = await settled(runner, jobId);
    expect(job).toMatchObject({ status: "done", attempts: 2, output: { attempt: 2 }, error: null });
    // Stale after 600 ms, queued again with a 100 ms backoff, claimed at the next poll.
    expect(Date.now() - killedAt).toBeLessThan(600 + 200 + 100 + 1_000);
    await runner.stop();
    await store.close();
    await database.drop();
  });
});
