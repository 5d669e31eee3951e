/** The job runner on the server and PGlite: limits, failures, time-outs, and a killed server's jobs. */
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
    runner.stop();
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
    runner.stop();
  });
});

describe("job runner across a server restart", () => {
  it("shows the job of a killed server as interrupted", async () => {
    const database = await freshServerDatabase();
    const child = startTs("tests/fixtures/job-child.ts", [database.url]);
    const jobId = (await child.waitFor(/^accepted /)).split(" ")[1] as string;
    child.process.kill("SIGKILL");
    await child.exited;
    const { openStore } = await import("@/lib/store");
    const store = await openStore({ url: database.url });
    const runner = new JobRunner(store.client, { handlers: {}, heartbeatMs: 200, staleAfterMs: 600 });
    expect((await runner.get(jobId))?.status).toMatch(/queued|running/);
    await expect.poll(async () => (await runner.get(jobId))?.status, { timeout: 10_000 }).toBe("interrupted");
    expect((await runner.get(jobId))?.error).toContain("server stopped");
    runner.stop();
    await store.close();
    await database.drop();
  });
});
