/**
 * The worker's loops on PGlite and the server: it wakes a sleeping run at its time, takes over a
 * run whose holder died once its lease expires, drives an idle run nobody holds, leaves a run an
 * unfinished job names to that job, logs one line per action, and stops with its leases released.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Registry } from "@/lib/agent/registry";
import { Worker } from "@/lib/jobs/worker";
import { crashAt, SimulatedCrashError } from "@/lib/journal/faults";
import { RUN_COMPLETE } from "@/lib/journal/names";
import { PostgresWaker } from "@/lib/store/postgres-waker";
import type { PostgresStore } from "@/lib/store/postgres-store";
import { runMain } from "../helpers/cli";
import { embeddedFolder, STORE_KINDS } from "../helpers/databases";
import { crashyAgent, sqlSink, type Sink } from "../recovery/fixtures";

const SQL_KINDS = STORE_KINDS.filter((kind) => kind.name !== "memory");

describe.each(SQL_KINDS)("worker: $name", (kind) => {
  let store: PostgresStore;
  let sink: Sink;
  beforeAll(async () => {
    store = (await kind.open()) as PostgresStore;
    sink = await sqlSink(store.client);
  });
  afterAll(async () => {
    await store.close();
  });

  /** Starts a run that crashes before its `at`-th write, as a killed process leaves it. */
  async function crashed(runId: string, at: number): Promise<void> {
    store.restart();
    store.faults = crashAt(at);
    await expect(crashyAgent(store, sink).run(runId, "Charge customer ada 42 dollars, wait 0 ms.")).rejects.toBeInstanceOf(SimulatedCrashError);
    store.faults = undefined;
    store.restart();
  }

  it("wakes, takes over and drives unfinished runs, leaving a job's run to the job", async () => {
    const waker = new PostgresWaker(store);
    await expect(crashyAgent(store, sink).run("sleeper", "Charge customer ada 42 dollars, wait 400 ms.", { waker })).rejects.toMatchObject({ code: "paused" });
    await crashed("abandoned", 4);
    expect(await store.acquireLease("abandoned", "dead-worker/1", 500)).toBe(true);
    await crashed("idle", 3);
    await crashed("job-owned", 3);
    await store.client.query("INSERT INTO jobs (job_id, kind, status, input, run_id) VALUES ('job-hold', 'hold', 'queued', '{}', 'job-owned')");

    const lines: string[] = [];
    const registry = new Registry().registerAgent({ name: "crashy", create: (journal) => crashyAgent(journal, sink) });
    const worker = new Worker({ store, registry, leaseTtlMs: 600, heartbeatMs: 100, idleAfterMs: 0, wakeEveryMs: 900, sweepEveryMs: 100, log: (line) => lines.push(line) });
    try {
      const complete = async (runId: string) => (await store.record(runId, RUN_COMPLETE)) !== undefined;
      await expect.poll(async () => (await complete("sleeper")) && (await complete("abandoned")) && (await complete("idle")), { timeout: 20_000 }).toBe(true);
      // A run's completion is journaled before its drive returns and logs, so the lines may trail it.
      const logged = ["woke run sleeper complete", "took over run abandoned complete", "drove run idle complete"];
      await expect.poll(() => logged.filter((line) => !lines.includes(line)), { timeout: 5_000 }).toEqual([]);
      // Its drives were leased under its own name.
      const [worked] = await store.client.query<{ n: string }>("SELECT count(*) AS n FROM workers WHERE worker_id = $1 AND role = 'worker'", [worker.id]);
      expect(Number(worked?.n)).toBe(1);
      await new Promise((done) => setTimeout(done, 500));
      expect(await complete("job-owned")).toBe(false);
      for (const runId of ["sleeper", "abandoned", "idle"]) expect(await sink.charges(runId), runId).toBe(1);
    } finally {
      await worker.stop();
    }
    expect(await store.client.query("SELECT run_id FROM leases WHERE holder LIKE $1", [`${worker.id}/%`])).toEqual([]);
    expect(await store.client.query("SELECT worker_id FROM workers WHERE worker_id = $1", [worker.id])).toEqual([]);
  });
});

describe("backtrack worker: bad input", () => {
  it("refuses an unknown job kind and a concurrency that is not a positive whole number (exit 2, one line)", async () => {
    const folder = embeddedFolder();
    try {
      const unknown = await runMain(["worker", "--kinds", "replay,nope", "--db", folder.url]);
      expect(unknown).toMatchObject({ code: 2, stdout: "" });
      expect(unknown.stderr.trim()).toMatch(/^backtrack: --kinds: unknown job kind "nope" \(known: .*replay.*\)$/);
      const zero = await runMain(["worker", "--concurrency", "0", "--db", folder.url]);
      expect(zero.code).toBe(2);
      expect(zero.stderr).toContain('--concurrency must be a positive whole number, got "0"');
      expect(process.listenerCount("SIGTERM")).toBe(0);
    } finally {
      folder.remove();
    }
  });

  it("refuses a BACKTRACK_RETENTION that is not a duration before it starts (exit 2, one line)", async () => {
    const folder = embeddedFolder();
    const previous = process.env.BACKTRACK_RETENTION;
    process.env.BACKTRACK_RETENTION = "monthly";
    try {
      const result = await runMain(["worker", "--db", folder.url]);
      expect(result).toMatchObject({ code: 2, stdout: "" });
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).toContain("monthly");
      expect(process.listenerCount("SIGTERM")).toBe(0);
    } finally {
      if (previous === undefined) delete process.env.BACKTRACK_RETENTION;
      else process.env.BACKTRACK_RETENTION = previous;
      folder.remove();
    }
  });
});
