/**
 * The inspector's job kinds on real databases: a replay reserved before it runs, driven by a job;
 * a recovery pass as a job; and a replay job whose server died mid-drive, run again by another
 * runner: the retry continues the same run from its journal (no second run, no step twice).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoRegistry } from "@/lib/demo/registry";
import { RECOVERY_RUNS } from "@/lib/demo/recovery-runs";
import { jobHandlers, RECOVER_JOB, REPLAY_JOB, type RecoverJobOutput, type ReplayJobInput, type ReplayJobOutput } from "@/lib/jobs/kinds";
import { JobRunner, type Job } from "@/lib/jobs/runner";
import { crashAt } from "@/lib/journal/faults";
import { replayRun } from "@/lib/regression/replay-run";
import { diffRuns } from "@/lib/regression/diff-runs";
import { reserveReplay } from "@/lib/regression/replay-run";
import type { PostgresStore } from "@/lib/store/postgres-store";
import { STORE_KINDS } from "../helpers/databases";
import { writeDemoRuns } from "../regression/helpers";

const SQL_KINDS = STORE_KINDS.filter((kind) => kind.name !== "memory");

async function settled(runner: JobRunner, jobId: string): Promise<Job> {
  await expect.poll(async () => (await runner.get(jobId))?.status, { timeout: 20_000 }).toMatch(/done|failed|interrupted/);
  return (await runner.get(jobId)) as Job;
}

describe.each(SQL_KINDS)("inspector jobs: $name", (kind) => {
  let store: PostgresStore;
  let runner: JobRunner;
  const registry = demoRegistry();
  beforeAll(async () => {
    store = (await kind.open()) as PostgresStore;
    await writeDemoRuns(store, "order-123");
    for (const run of RECOVERY_RUNS) await run.write(store).catch(() => undefined);
    runner = new JobRunner(store.client, { handlers: jobHandlers(store, registry) });
  });
  afterAll(async () => {
    await runner.stop();
    await store.close();
  });

  it("reserves a replay's id before the job, and the job drives that very run", async () => {
    const newRunId = await reserveReplay({ journal: store, registry, runId: "order-123", model: "demo/v2" });
    expect(newRunId).toMatch(/^order-123~replay-\d+$/);
    expect((await store.run(newRunId))?.status).toBe("running");
    const input: ReplayJobInput = { runId: "order-123", model: "demo/v2", stripMemoryContext: false, newRunId };
    const job = await settled(runner, (await runner.submit(REPLAY_JOB, input)).jobId);
    expect(job.status).toBe("done");
    const output = job.output as ReplayJobOutput;
    expect(output).toMatchObject({ newRunId, paused: null, diff: { divergentAt: 0 } });
    expect((await store.run(newRunId))?.status).toBe("complete");
    // A second reservation takes the next free id.
    expect(await reserveReplay({ journal: store, registry, runId: "order-123", model: "recorded" })).not.toBe(newRunId);
  });

  it("refuses at reservation what the caller can fix: unknown runs, runs without input, unknown models", async () => {
    await expect(reserveReplay({ journal: store, registry, runId: "no-such-run", model: "recorded" })).rejects.toMatchObject({ code: "not_found" });
    await store.append({ runId: "headless", name: "turn:0", kind: "value", payload: 1 });
    await expect(reserveReplay({ journal: store, registry, runId: "headless", model: "recorded" })).rejects.toMatchObject({ code: "no_recorded_input" });
    await expect(reserveReplay({ journal: store, registry, runId: "order-123", model: "demo/v9" })).rejects.toMatchObject({ code: "not_found" });
  });

  it("runs a recovery pass as a job and reports what it did", async () => {
    const job = await settled(runner, (await runner.submit(RECOVER_JOB, {})).jobId);
    expect(job.status).toBe("done");
    const output = job.output as RecoverJobOutput;
    // The only fault: the run without run:start written above cannot be resumed.
    expect(output.runs.filter((run) => run.outcome === "failed")).toEqual([{ runId: "headless", outcome: "failed", error: expect.stringContaining("no run:start") }]);
    expect(output.error).toContain("headless");
    expect(output.runs.find((run) => run.runId === "refund-900")).toMatchObject({ outcome: "paused", pause: { reason: "approval" } });
    expect(output.runs.find((run) => run.runId === "payout-9")).toMatchObject({ outcome: "paused", pause: { reason: "halt" } });
  });

  it("runs a replay job again after its server died mid-drive, continuing the same run", async () => {
    // The only runner now: the queue is shared.
    await runner.stop();
    const newRunId = await reserveReplay({ journal: store, registry, runId: "order-123", model: "demo/v2" });
    const input: ReplayJobInput = { runId: "order-123", model: "demo/v2", stripMemoryContext: false, newRunId };
    // What a killed server leaves: the replay driven part-way (crashed before its 3rd write), its
    // lease still held for a moment, and its job row no longer renewed.
    store.restart();
    store.faults = crashAt(3);
    await expect(replayRun({ journal: store, registry, runId: "order-123", model: "demo/v2", newRunId })).rejects.toThrow(/simulated crash/);
    store.faults = undefined;
    store.restart();
    const before = await store.history(newRunId);
    expect(before.length).toBeGreaterThan(1);
    expect(await store.acquireLease(newRunId, "gone-1/1", 800)).toBe(true);
    await store.client.query(
      `INSERT INTO jobs (job_id, kind, status, input, owner, attempts, run_id, heartbeat_at) VALUES ('job-killed', $1::text, 'running', $2::text::jsonb, 'gone-1', 1, $3::text, now() - interval '1 hour')`,
      [REPLAY_JOB, JSON.stringify(input), newRunId],
    );
    const replays = async () => (await store.runs({ limit: 200 })).runs.filter((run) => run.runId.startsWith("order-123~replay-")).length;
    const replaysBefore = await replays();
    const restarted = new JobRunner(store.client, {
      handlers: jobHandlers(store, registry, { leaseTtlMs: 1_000 }),
      heartbeatMs: 100,
      staleAfterMs: 300,
      backoffMs: 50,
      pollMs: 50,
    });
    try {
      const job = await settled(restarted, "job-killed");
      expect(job).toMatchObject({ status: "done", attempts: 2, error: null });
      expect((job.output as ReplayJobOutput).newRunId).toBe(newRunId);
    } finally {
      await restarted.stop();
    }
    expect(await replays()).toBe(replaysBefore);
    const after = await store.history(newRunId);
    // The first attempt's records are kept as they were, each name once, then the run completed.
    expect(after.slice(0, before.length)).toEqual(before);
    expect(new Set(after.map((record) => record.name)).size).toBe(after.length);
    expect((await store.run(newRunId))?.status).toBe("complete");
    expect((await diffRuns(store, "order-123", newRunId)).divergentAt).toBe(0);
  });
});
