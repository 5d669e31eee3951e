/**
 * The `resume` job kind on PGlite and the server: a decision is journaled at once and the run's
 * root resumes in a job; a failing resume fails the job with its error while the decision stays
 * recorded; a second decision is refused while the first one's resume waits for a job slot; and
 * the generic job view's sentences.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { PendingApproval } from "@/lib/agent/pauses";
import { Registry } from "@/lib/agent/registry";
import { tool } from "@/lib/agent/tool";
import { supportAgent } from "@/lib/demo/recovery-agents";
import { demoRegistry } from "@/lib/demo/registry";
import { RECOVERY_RUNS } from "@/lib/demo/recovery-runs";
import { decideThenSubmit } from "@/lib/jobs/decide-then-resume";
import { jobHandlers, RESUME_JOB, type ResumeJobInput, type ResumeJobOutput } from "@/lib/jobs/kinds";
import { JobRunner, type Job } from "@/lib/jobs/runner";
import { jobView } from "@/lib/jobs/view";
import { resumeRoot } from "@/lib/recovery/actions";
import { answer, approve } from "@/lib/recovery/pause-decisions";
import type { PostgresStore } from "@/lib/store/postgres-store";
import { delegatingParent } from "../recovery/agents";
import { STORE_KINDS } from "../helpers/databases";

const SQL_KINDS = STORE_KINDS.filter((kind) => kind.name !== "memory");

async function settled(runner: JobRunner, jobId: string): Promise<Job> {
  await expect.poll(async () => (await runner.get(jobId))?.status, { timeout: 20_000 }).toMatch(/done|failed|interrupted/);
  return (await runner.get(jobId)) as Job;
}

/** A parent whose tool runs a child agent that waits for approval of a refund: its pause names the child's run. */
function treeAgents(store: PostgresStore) {
  const refund = tool({
    name: "refund",
    description: "Refund an order; above $100 a human approves.",
    input: z.object({ orderId: z.string(), amount: z.number() }),
    needsApproval: ({ amount }) => amount > 100,
    execute: ({ amount }) => ({ refunded: amount }),
  });
  return { parent: delegatingParent(store, refund) };
}

describe.each(SQL_KINDS)("resume jobs: $name", (kind) => {
  let store: PostgresStore;
  let runner: JobRunner;
  beforeAll(async () => {
    store = (await kind.open()) as PostgresStore;
    for (const run of RECOVERY_RUNS) await run.write(store).catch(() => undefined);
    runner = new JobRunner(store.client, { handlers: jobHandlers(store, demoRegistry()) });
  });
  afterAll(async () => {
    await runner.stop();
    await store.close();
  });

  it("records the approval before answering, then the job resumes the run to completion", async () => {
    const submitted = await decideThenSubmit(runner, "refund-900", "decision", () => approve(store, "refund-900", { approved: true, by: "ana" }));
    expect(submitted).toMatchObject({ runId: "refund-900", decision: { approved: true, by: "ana", toolName: "issueRefund" }, jobId: expect.stringMatching(/^job-/) });
    // Recorded before the answer, whatever the job has done by now.
    const approval = (await store.history("refund-900")).find((record) => record.kind === "approval");
    expect(approval?.payload).toMatchObject({ approved: true, by: "ana" });

    const job = await settled(runner, submitted.jobId);
    expect(job).toMatchObject({ kind: RESUME_JOB, status: "done", error: null });
    expect(job.input as ResumeJobInput).toEqual({ runId: "refund-900", decision: { runId: "refund-900", name: approval?.name, by: "ana" } });
    const output = job.output as ResumeJobOutput;
    expect(output).toMatchObject({ root: "refund-900", resumed: { runId: "refund-900", outcome: "complete" }, run: { status: "complete" } });
    expect(jobView(job)).toMatchObject({ jobId: submitted.jobId, kind: "resume", status: "done", sentence: "refund-900 resumed and completed" });
    expect((await store.run("refund-900"))?.status).toBe("complete");
    // The queue is shared: the runners of the next tests must be the only ones claiming.
    await runner.stop();
  });

  it("fails the job with the resume's error, while the answer stays recorded and recovery can finish the run", async () => {
    // A server whose registry lost the agent: the run cannot be rebuilt.
    const broken = new JobRunner(store.client, { handlers: jobHandlers(store, new Registry()) });
    try {
      const submitted = await decideThenSubmit(broken, "concierge-5", "answer", () => answer(store, "concierge-5", "Saturday", { by: "bo" }));
      const job = await settled(broken, submitted.jobId);
      expect(job.status).toBe("failed");
      expect(job.error).toBe('run "concierge-5" failed when resumed: no agent named "concierge" is registered (known: none)');
      expect(job.output).toBeNull();
      expect(jobView(job)).toMatchObject({ status: "failed", error: job.error, sentence: job.error });
      const recorded = (await store.history("concierge-5")).find((record) => (record.payload as { type?: string }).type === "answer");
      expect(recorded?.payload).toMatchObject({ type: "answer", text: "Saturday", by: "bo" });
      expect((await store.run("concierge-5"))?.status).not.toBe("complete");
    } finally {
      await broken.stop();
    }
    // The decision was not lost with the job: a later drive reads it.
    const resumed = await resumeRoot(store, demoRegistry(), "concierge-5");
    expect(resumed.resumed.outcome).toBe("complete");
    expect((await store.record("concierge-5", "run:complete"))?.payload).toMatchObject({ value: { text: "Booked a table for two on Saturday." } });
  });

  it("refuses a second decision while the first one's resume waits for a job slot; the first decision stands", async () => {
    const { parent } = treeAgents(store);
    await expect(parent().run("tree", "Refund order 5 through the child.")).rejects.toBeInstanceOf(PendingApproval);
    await expect(supportAgent(store).run("refund-901", "Refund $901 for order 78.")).rejects.toBeInstanceOf(PendingApproval);
    const registry = demoRegistry().registerAgent({ name: "parent", create: () => parent() });
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // One job slot, held by `hold`: the resume jobs stay queued until the gate opens.
    const slow = new JobRunner(store.client, { concurrency: 1, handlers: { ...jobHandlers(store, registry), hold: () => gate } });
    try {
      await slow.submit("hold", {});
      const first = await decideThenSubmit(slow, "tree", "decision", () => approve(store, "tree", { approved: true, by: "first" }));
      expect(first.runId).toBe("tree.t0c0");
      expect((await slow.get(first.jobId))?.status).toBe("queued");
      // The pause was in the child: the root still waits, and the child's decision is taken.
      await expect(decideThenSubmit(slow, "tree", "decision", () => approve(store, "tree", { approved: false, by: "second" }))).rejects.toMatchObject({
        code: "already_decided",
        message: expect.stringContaining("already decided by first"),
      });
      // A run's own pause: once decided, the run is running again, so it waits for nothing.
      const refund = await decideThenSubmit(slow, "refund-901", "decision", () => approve(store, "refund-901", { approved: true, by: "first" }));
      await expect(decideThenSubmit(slow, "refund-901", "decision", () => approve(store, "refund-901", { approved: false, by: "second" }))).rejects.toMatchObject({
        code: "not_waiting",
      });

      release();
      expect((await settled(slow, first.jobId)).output).toMatchObject({ root: "tree", resumed: { outcome: "complete" } });
      expect((await settled(slow, refund.jobId)).output).toMatchObject({ root: "refund-901", resumed: { outcome: "complete" } });
      const approvals = (await store.history("tree.t0c0")).filter((record) => record.kind === "approval");
      expect(approvals.map((record) => record.payload)).toEqual([expect.objectContaining({ approved: true, by: "first" })]);
      expect((await store.run("tree"))?.status).toBe("complete");
    } finally {
      release();
      await slow.stop({ graceMs: 0 });
    }
  });
});

describe("jobView", () => {
  const base: Job = {
    jobId: "job-1",
    kind: RESUME_JOB,
    status: "queued",
    input: { runId: "r-1", decision: { runId: "r-1", name: "n", by: "ana" } },
    output: null,
    error: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    startedAt: null,
    finishedAt: null,
    attempts: 0,
    maxAttempts: 3,
    owner: null,
    runId: "r-1",
  };

  it("says how a finished resume ended, and nothing while it is queued or running", () => {
    expect(jobView(base)).toEqual({
      jobId: "job-1",
      kind: "resume",
      status: "queued",
      input: base.input,
      createdAt: base.createdAt,
      startedAt: null,
      finishedAt: null,
      attempts: 0,
      maxAttempts: 3,
    });
    expect(jobView({ ...base, status: "running" }).sentence).toBeUndefined();
    const done = (resumed: ResumeJobOutput["resumed"]) => jobView({ ...base, status: "done", output: { root: "r-0", resumed, run: undefined } }).sentence;
    expect(done({ runId: "r-0", outcome: "complete" })).toBe("r-0 resumed and completed");
    expect(done({ runId: "r-0", outcome: "paused", pause: { runId: "r-1", reason: "interrupt", message: "asks: when?" } })).toBe("r-0 resumed and paused again: asks: when?");
    expect(done({ runId: "r-0", outcome: "leased" })).toContain("another process");
    expect(jobView({ ...base, status: "interrupted", error: "the server stopped while this job was unfinished" }).sentence).toBe(
      "the server stopped while this job was unfinished; Recover now finishes r-1",
    );
  });
});
