/**
 * recover and leases on every store: enumerate unfinished runs, skip finished ones, drive roots
 * only, count pauses as recoveries, join genuine faults; exclusive leases with expiry and
 * takeover; a lost lease cancels the drive.
 */
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { PendingApproval } from "@/lib/agent/pauses";
import { tool } from "@/lib/agent/tool";
import { scriptedModel } from "@/lib/agent/scripted";
import { Agent } from "@/lib/agent/agent";
import { ConfigError, isBacktrackError } from "@/lib/journal/errors";
import { crashAt, SimulatedCrashError } from "@/lib/journal/faults";
import type { JournalBase } from "@/lib/journal/base";
import type { Durable, Journal, Leaser, Lister } from "@/lib/journal/ports";
import { isLeaser, isLister } from "@/lib/journal/ports";
import { LeaseHeldError, LeaseLostError, RecoveryError } from "@/lib/recovery/errors";
import { DEFAULT_LEASE_TTL_MS, lease } from "@/lib/recovery/lease";
import { isComplete, recover } from "@/lib/recovery/recover";
import type { PostgresStore } from "@/lib/store";
import { STORE_KINDS } from "../helpers/databases";
import { plannedAgent, reusableStore } from "./agents";

type TestStore = Journal & JournalBase & Leaser & Lister & { close(): Promise<void> };

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(STORE_KINDS)("recover and leases: $name", (kind) => {
  const stores = reusableStore<TestStore>(kind);
  let store: TestStore;
  let ran: string[];

  const note = tool({
    name: "note",
    description: "Write a note.",
    input: z.object({ text: z.string() }),
    safety: { idempotencyKey: true },
    execute: ({ text }, ctx) => {
      ran.push(`${ctx.runId}:${text}`);
      return { noted: text };
    },
  });
  const approveMe = tool({ name: "wire", description: "Wire money (approval).", input: z.object({}), needsApproval: true, execute: () => ({ wired: true }) });
  const agentFor = (runId: string): Agent => {
    if (runId.startsWith("broken")) {
      return new Agent({
        name: "broken",
        store,
        model: scriptedModel("broken/v1", (_request, turn) => {
          if (turn === 1) throw new Error("model unavailable");
          return { toolCalls: [{ name: "note", args: { text: "x" } }] };
        }),
        tools: [note],
      });
    }
    if (runId.startsWith("wire")) return plannedAgent(store, [approveMe], [{ name: "wire", args: {} }]);
    return plannedAgent(
      store,
      [note],
      [
        { name: "note", args: { text: "one" } },
        { name: "note", args: { text: "two" } },
      ],
    );
  };
  const resume = (runId: string, { signal }: { signal: AbortSignal }) => agentFor(runId).runResult(runId, undefined, { signal });

  /** Starts a run and crashes it at write k, as a process dying mid-run would leave it. */
  async function crashedRun(runId: string, k: number): Promise<void> {
    store.restart();
    store.faults = crashAt(k);
    await expect(agentFor(runId).run(runId, `please ${runId}`)).rejects.toBeInstanceOf(SimulatedCrashError);
    store.faults = undefined;
    store.restart();
  }

  beforeEach(async () => {
    store = await stores.reset();
    ran = [];
  });
  afterAll(async () => {
    await stores.close();
  });

  it("implements Lister and Leaser", () => {
    expect(isLister(store)).toBe(true);
    expect(isLeaser(store)).toBe(true);
  });

  it("skips finished runs, drives the rest, counts pauses as recoveries and joins only genuine faults", async () => {
    await agentFor("done").run("done", "please done");
    await crashedRun("crashed-a", 2);
    await crashedRun("crashed-b", 5);
    await expect(agentFor("wire-1").run("wire-1", "wire it")).rejects.toBeInstanceOf(PendingApproval);
    await expect(agentFor("broken-1").run("broken-1", "break")).rejects.toThrow("model unavailable");
    expect(await isComplete(store, "done")).toBe(true);
    expect(await isComplete(store, "crashed-a")).toBe(false);
    ran = [];

    const progress: string[] = [];
    const result = await recover(store, resume, { onProgress: (run) => progress.push(`${run.runId}:${run.outcome}`) });
    expect(result.n).toBe(4);
    expect(result.runs.map((run) => `${run.runId}:${run.outcome}`).sort()).toEqual(["broken-1:failed", "crashed-a:complete", "crashed-b:complete", "wire-1:paused"]);
    expect(progress.sort()).toEqual(result.runs.map((run) => `${run.runId}:${run.outcome}`).sort());
    expect(result.error).toBeInstanceOf(RecoveryError);
    expect(isBacktrackError(result.error, "recovery_failed")).toBe(true);
    expect(result.error?.failures.map((failure) => failure.runId)).toEqual(["broken-1"]);
    expect((result.error?.failures[0]?.error as Error).message).toBe("model unavailable");
    expect(result.runs.find((run) => run.runId === "wire-1")?.pause).toMatchObject({ reason: "approval" });
    // The crashed runs finished without repeating what they had done; "done" was not touched.
    expect(ran.sort()).toEqual(["crashed-a:one", "crashed-a:two", "crashed-b:two"]);
    expect(await isComplete(store, "crashed-a")).toBe(true);
    expect((await store.run("done"))?.recordCount).toBe(9);
  });

  it("drives a sub-agent run through its root, and leaves one whose parent is finished", async () => {
    const child = () => plannedAgent(store, [note], [{ name: "note", args: { text: "child" } }], { name: "child" });
    const delegate = tool({
      name: "delegate",
      description: "Run the child.",
      input: z.object({}),
      execute: async (_args, ctx) => ({ child: (await ctx.runAgent(child(), "go")).text }),
    });
    const parent = () => plannedAgent(store, [delegate], [{ name: "delegate", args: {} }], { name: "parent" });
    // Crash inside the child: its note's attempt is the 8th write (parent 4, child 4).
    store.restart();
    store.faults = {
      beforeWrite: (record) =>
        void (
          record.name === "turn:0:call:0:result" &&
          record.runId === "root.t0c0" &&
          (() => {
            throw new SimulatedCrashError(0, "before", record.name);
          })()
        ),
    };
    await expect(parent().run("root", "delegate")).rejects.toBeInstanceOf(SimulatedCrashError);
    store.faults = undefined;
    store.restart();
    expect((await store.unfinishedRuns()).map((run) => [run.runId, run.parentRunId])).toEqual([
      ["root", null],
      ["root.t0c0", "root"],
    ]);
    const resumed: string[] = [];
    const result = await recover(store, async (runId, { signal }) => {
      resumed.push(runId);
      return parent().runResult(runId, undefined, { signal });
    });
    expect(resumed).toEqual(["root"]);
    expect(result.runs).toEqual([{ runId: "root", outcome: "complete" }]);
    expect(ran).toEqual(["root.t0c0:child", "root.t0c0:child"]);
    expect(await isComplete(store, "root.t0c0")).toBe(true);

    // An orphan: a child left unfinished under a finished parent is not driven.
    await store.append({ runId: "orphan.t0c0", name: "run:start", kind: "header", payload: { input: "x", agent: "child", model: "m", tools: [], parentRunId: "root" } });
    const again = await recover(store, async () => {
      throw new Error("must not be called");
    });
    expect(again.runs).toEqual([{ runId: "orphan.t0c0", outcome: "skipped" }]);
    expect(again.n).toBe(0);
  });

  it('waiting: "skip" leaves runs that wait for a human alone until a decision is written, also in a sub-agent', async () => {
    const child = () => plannedAgent(store, [approveMe], [{ name: "wire", args: {} }], { name: "child" });
    const delegate = tool({
      name: "delegate",
      description: "Run the child.",
      input: z.object({}),
      execute: async (_args, ctx) => ({ child: (await ctx.runAgent(child(), "wire it")).text }),
    });
    const parent = () => plannedAgent(store, [delegate], [{ name: "delegate", args: {} }], { name: "parent" });
    await expect(parent().run("boss", "delegate the wire")).rejects.toBeInstanceOf(PendingApproval);
    const resumed: string[] = [];
    const resumeBoss = async (runId: string, { signal }: { signal: AbortSignal }) => {
      resumed.push(runId);
      return parent().runResult(runId, undefined, { signal });
    };
    const skipped = await recover(store, resumeBoss, { waiting: "skip" });
    expect(skipped.runs).toEqual([{ runId: "boss", outcome: "waiting", pause: expect.objectContaining({ reason: "approval", runId: "boss.t0c0" }) }]);
    expect(skipped.n).toBe(0);
    // The default re-drives it: it pauses again.
    expect((await recover(store, resumeBoss)).runs).toEqual([{ runId: "boss", outcome: "paused", pause: expect.objectContaining({ reason: "approval" }) }]);
    // A decision written to the sub-agent (its parent not resumed yet, as after a crash) makes the tree drivable again.
    await store.append({
      runId: "boss.t0c0",
      name: "turn:0:call:0:approval",
      kind: "approval",
      payload: { toolCallId: "", toolName: "wire", approved: true, by: "ed", at: new Date().toISOString() },
    });
    expect((await recover(store, resumeBoss, { waiting: "skip" })).runs).toEqual([{ runId: "boss", outcome: "complete" }]);
    expect(resumed).toEqual(["boss", "boss"]);
  });

  it("refuses a store that cannot enumerate with a configuration error", async () => {
    const bare: Durable = { do: (runId, name, fn) => store.do(runId, name, fn), history: (runId) => store.history(runId) };
    const error = await recover(bare, resume).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect(isBacktrackError(error, "config")).toBe(true);
  });

  it("leases are exclusive until released or expired, and a holder's lease can be renewed", async () => {
    expect(await store.acquireLease("r", "a", 10_000)).toBe(true);
    expect(await store.acquireLease("r", "b", 10_000)).toBe(false);
    expect(await store.renewLease("r", "b", 10_000)).toBe(false);
    expect(await store.acquireLease("r", "a", 10_000)).toBe(true);
    expect(await store.renewLease("r", "a", 10_000)).toBe(true);
    await store.releaseLease("r", "b");
    expect(await store.acquireLease("r", "b", 10_000)).toBe(false);
    await store.releaseLease("r", "a");
    expect(await store.acquireLease("r", "b", 200)).toBe(true);
    await wait(350);
    // b crashed (never renewed): the lease expired and a takes over; b can no longer renew.
    expect(await store.acquireLease("r", "a", 10_000)).toBe(true);
    expect(await store.renewLease("r", "b", 10_000)).toBe(false);
  });

  it("recover skips a run another holder leases, and takes it over once that lease expires", async () => {
    await crashedRun("held", 2);
    expect(await store.acquireLease("held", "crashed-holder", 400)).toBe(true);
    const first = await recover(store, resume, { holder: "me" });
    expect(first.runs).toEqual([{ runId: "held", outcome: "leased" }]);
    expect(first.n).toBe(0);
    expect((await store.unfinishedRuns()).find((run) => run.runId === "held")?.leaseHolder).toBe("crashed-holder");
    await wait(550);
    expect((await store.unfinishedRuns()).find((run) => run.runId === "held")?.leaseHolder).toBeNull();
    const second = await recover(store, resume, { holder: "me", ttlMs: 5_000 });
    expect(second.runs).toEqual([{ runId: "held", outcome: "complete" }]);
    // Released after the drive.
    expect(await store.acquireLease("held", "someone-else", 1_000)).toBe(true);
  });

  it("lease() refuses non-positive TTLs, defaults to 30 s, and holds the lease while the drive runs", async () => {
    for (const ttlMs of [0, -5, Number.NaN]) {
      const error = await lease(store, "ttl", async () => "never", { ttlMs }).catch((caught: unknown) => caught);
      expect(isBacktrackError(error, "bad_input")).toBe(true);
    }
    expect(DEFAULT_LEASE_TTL_MS).toBe(30_000);
    const value = await lease(store, "ttl", async () => {
      expect(await store.acquireLease("ttl", "intruder", 1_000)).toBe(false);
      if (kind.name !== "memory") {
        const [row] = await (store as unknown as PostgresStore).client.query<{ seconds: number }>(
          "SELECT extract(epoch FROM expires_at - now())::float AS seconds FROM leases WHERE run_id = 'ttl'",
        );
        expect(row?.seconds).toBeGreaterThan(28);
        expect(row?.seconds).toBeLessThanOrEqual(30);
      }
      return "driven";
    });
    expect(value).toBe("driven");
    expect(await store.acquireLease("ttl", "after", 1_000)).toBe(true);
    await expect(lease(store, "ttl", async () => "x")).rejects.toBeInstanceOf(LeaseHeldError);
    await expect(lease({}, "ttl", async () => "x")).rejects.toBeInstanceOf(ConfigError);
  });

  it("renews while the drive runs longer than the TTL", async () => {
    const value = await lease(
      store,
      "long",
      async () => {
        await wait(700);
        return "outlived";
      },
      { ttlMs: 300 },
    );
    expect(value).toBe("outlived");
  });

  it("a failed renewal cancels the drive with LeaseLostError, and the cut-off tool gets no result", async () => {
    // Another process takes the run over once the tool runs: renewals fail from then on. (Failing
    // them from the start raced the model turn on a loaded machine: the cut came before the attempt.)
    let toolStarted = false;
    const stolen: Leaser = {
      acquireLease: (runId, holder, ttlMs) => store.acquireLease(runId, holder, ttlMs),
      renewLease: async (runId, holder, ttlMs) => !toolStarted && (await store.renewLease(runId, holder, ttlMs)),
      releaseLease: (runId, holder) => store.releaseLease(runId, holder),
    };
    const slow = tool({
      name: "slow",
      description: "Works until cancelled.",
      input: z.object({}),
      execute: (_args, ctx) =>
        new Promise((_resolve, reject) => {
          toolStarted = true;
          ctx.signal.addEventListener("abort", () => reject(new Error("stopped")));
        }),
    });
    const agent = plannedAgent(store, [slow], [{ name: "slow", args: {} }]);
    const error = await lease(stolen, "lost", (signal) => agent.run("lost", "go", { signal }), { ttlMs: 150 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LeaseLostError);
    expect(isBacktrackError(error, "lease_lost")).toBe(true);
    expect((await store.history("lost")).map((record) => record.name)).toEqual(["run:start", "turn:0", "turn:0:call:0:attempt"]);
    // The cancelled drive left the status to whoever owns the run now.
    expect((await store.run("lost"))?.status).toBe("running");
  });
});
