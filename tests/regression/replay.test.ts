/**
 * replayRun on MemStore, PGlite and the server: the seed's example (order-123 under demo/v2), the
 * source left untouched, derived replay ids, the recorded model, overrides and typed errors.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { HeaderPayload } from "@/lib/agent/payloads";
import { NoRecordedOutputError } from "@/lib/agent/replay";
import { tool } from "@/lib/agent/tool";
import { chargeCard } from "@/lib/demo/tools";
import { demoModel } from "@/lib/demo/models";
import { demoRegistry } from "@/lib/demo/registry";
import { isBacktrackError } from "@/lib/journal/errors";
import type { Journal } from "@/lib/journal/ports";
import { checkReplay } from "@/lib/regression/check";
import { diffRuns } from "@/lib/regression/diff-runs";
import { ReplayFailedError } from "@/lib/regression/errors";
import { replayRun, reserveReplay } from "@/lib/regression/replay-run";
import { STORE_KINDS } from "../helpers/databases";
import { storedRecords, writeDemoRuns } from "./helpers";

describe.each(STORE_KINDS)("replayRun: $name", (kind) => {
  let store: Journal & { close(): Promise<void> };
  const registry = demoRegistry();

  beforeAll(async () => {
    store = await kind.open();
    await writeDemoRuns(store, "order-123", "trip-42");
  });
  afterAll(async () => {
    await store.close();
  });

  it("replays order-123 under demo/v2 from its recorded input, and the diff diverges at the chargeCard decision", async () => {
    const before = await storedRecords(store, "order-123");
    const summaryBefore = await store.run("order-123");
    const { newRunId, result } = await replayRun({ journal: store, runId: "order-123", model: "demo/v2", registry });
    expect(newRunId).toBe("order-123~replay-1");
    expect(result?.text).toBe("Done: order 123 charged 5000 USD.");
    const header = (await store.record(newRunId, "run:start"))?.payload as HeaderPayload;
    expect(header).toMatchObject({ input: "Please charge order 123.", agent: "billing", model: "demo/v2", replayOf: "order-123", tools: ["chargeCard"] });
    expect(header.system).toBe("You are the billing agent. Charge orders as asked.");

    const diff = await diffRuns(store, "order-123", newRunId);
    expect(diff.divergentAt).toBe(0);
    const decision = diff.steps[0];
    expect(decision).toMatchObject({ kind: "model", step: 0, status: "changed" });
    expect(decision?.detail.toolCallsA?.map((call) => [call.toolName, call.args])).toEqual([["chargeCard", { orderId: "123", amount: 500 }]]);
    expect(decision?.detail.toolCallsB?.map((call) => [call.toolName, call.args])).toEqual([["chargeCard", { orderId: "123", amount: 5000 }]]);
    expect(diff.steps[1]).toMatchObject({ kind: "tool", step: 0, status: "changed" });
    expect(diff.steps[1]?.detail).toMatchObject({ toolName: "chargeCard", statusA: "succeeded", statusB: "succeeded", outputA: { charged: 500 }, outputB: { charged: 5000 } });
    expect(diff.steps[1]?.detail.argsHashA).not.toBe(diff.steps[1]?.detail.argsHashB);

    // Nothing was written to, or changed in, the source run.
    expect(await storedRecords(store, "order-123")).toBe(before);
    expect(await store.run("order-123")).toEqual(summaryBefore);
  });

  it("derives a fresh id per replay and lets the journal decide between concurrent replays", async () => {
    const ids = await Promise.all([1, 2, 3].map(() => replayRun({ journal: store, runId: "order-123", model: "demo/v1", registry }).then((replayed) => replayed.newRunId)));
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) {
      expect(id).toMatch(/^order-123~replay-\d+$/);
      expect(((await store.record(id, "run:start"))?.payload as HeaderPayload).replayOf).toBe("order-123");
      expect((await store.run(id))?.status).toBe("complete");
    }
    expect(ids).not.toContain("order-123~replay-1");
  });

  it("replays against the recorded outputs, sub-agents included, without a difference", async () => {
    const before = await storedRecords(store, "trip-42");
    const { newRunId, result } = await replayRun({ journal: store, runId: "trip-42", model: "recorded", registry });
    expect(result?.text).toBe("Plan: Cheapest: FR 8362 at 19:30 for €96. Then a train to the hotel.");
    const diff = await diffRuns(store, "trip-42", newRunId);
    expect(diff.divergentAt).toBeNull();
    expect(diff.summary).toEqual({ same: 3, changed: 0, missing: 0, added: 0 });
    expect(await diffRuns(store, "trip-42.t0c0", `${newRunId}.t0c0`)).toMatchObject({ divergentAt: null, summary: { same: 3 } });
    expect((await store.run(`${newRunId}.t0c0`))?.parentRunId).toBe(newRunId);
    expect(await storedRecords(store, "trip-42")).toBe(before);
  });

  it("drives a replay it has just created without reading that run back, and resumes a reserved one from its history", async () => {
    const history = vi.spyOn(store, "history");
    try {
      const { newRunId } = await replayRun({ journal: store, runId: "trip-42", model: "recorded", registry });
      expect(history.mock.calls.filter(([runId]) => runId === newRunId)).toEqual([]);
      expect((await diffRuns(store, "trip-42", newRunId)).divergentAt).toBeNull();

      const reserved = await reserveReplay({ journal: store, runId: "order-123", model: "recorded", registry });
      history.mockClear();
      const resumed = await replayRun({ journal: store, runId: "order-123", model: "recorded", registry, newRunId: reserved });
      expect(history.mock.calls.filter(([runId]) => runId === reserved).length).toBeGreaterThan(0);
      expect(resumed.newRunId).toBe(reserved);
      expect((await store.run(reserved))?.status).toBe("complete");
      expect((await diffRuns(store, "order-123", reserved)).divergentAt).toBeNull();
    } finally {
      history.mockRestore();
    }
  });

  it("takes a new tool set and system text; the diff then diverges at the tool decision", async () => {
    const declined = tool({
      name: "chargeCard",
      description: "Charge the card on file (the new payment provider).",
      input: z.object({ orderId: z.string(), amount: z.number() }),
      execute: (): { charged: number } => {
        throw new Error("card declined");
      },
    });
    const { newRunId } = await replayRun({
      journal: store,
      runId: "order-123",
      model: "recorded",
      registry,
      tools: { chargeCard: declined },
      system: "Be brief.",
      newRunId: "order-123-declined",
    });
    expect(((await store.record(newRunId, "run:start"))?.payload as HeaderPayload).system).toBe("Be brief.");
    const diff = await diffRuns(store, "order-123", newRunId);
    expect(diff.summary).toEqual({ same: 2, changed: 1, missing: 0, added: 0 });
    expect(diff.divergentAt).toBe(1);
    expect(diff.steps[1]?.detail).toMatchObject({ toolName: "chargeCard", statusA: "succeeded", statusB: "failed", outputB: { error: "card declined" } });
  });

  it("refuses what it cannot replay honestly, with typed errors", async () => {
    const unknown = await replayRun({ journal: store, runId: "no-such-run", model: "demo/v1", registry }).catch((error: unknown) => error);
    expect(isBacktrackError(unknown, "not_found")).toBe(true);

    await store.do("steps-only", "fetch", () => 1);
    const noInput = await replayRun({ journal: store, runId: "steps-only", model: "demo/v1", registry }).catch((error: unknown) => error);
    expect(isBacktrackError(noInput, "no_recorded_input")).toBe(true);
    expect((noInput as { runId: string }).runId).toBe("steps-only");

    const noTools = await replayRun({ journal: store, runId: "order-123", model: demoModel("v1") }).catch((error: unknown) => error);
    expect(isBacktrackError(noTools, "missing_tools")).toBe(true);
    expect((noTools as { missing: string[] }).missing).toEqual(["chargeCard"]);

    const unknownModel = await replayRun({ journal: store, runId: "order-123", model: "gpt-9", registry }).catch((error: unknown) => error);
    expect(isBacktrackError(unknownModel, "not_found")).toBe(true);

    const self = await replayRun({ journal: store, runId: "order-123", model: "demo/v1", registry, newRunId: "order-123" }).catch((error: unknown) => error);
    expect(isBacktrackError(self, "bad_input")).toBe(true);

    const taken = await replayRun({ journal: store, runId: "order-123", model: "demo/v1", registry, newRunId: "trip-42" }).catch((error: unknown) => error);
    expect(isBacktrackError(taken, "run_exists")).toBe(true);

    // Nothing was written under a refused id.
    expect(await store.run("order-123~replay-99")).toBeUndefined();
    expect((await store.history("trip-42")).some((record) => record.name === "run:start" && (record.payload as HeaderPayload).agent !== "planner")).toBe(false);
  });

  it("wraps a failed replay with its new run id and the cause (a recorded replay that runs out of outputs)", async () => {
    // The source's tool now runs a sub-agent: the replay asks for more model turns than were recorded.
    const delegating = tool({
      name: "chargeCard",
      description: "Charge, after asking the researcher.",
      input: z.object({ orderId: z.string(), amount: z.number() }),
      execute: async (args, ctx) => {
        const researcher = registry.agent("researcher", store);
        await ctx.runAgent(researcher, "Is this order fine?");
        return chargeCard.execute(args, ctx);
      },
    });
    const error = await replayRun({ journal: store, runId: "order-123", model: "recorded", registry, tools: [delegating], newRunId: "order-123-diverged" }).catch(
      (caught: unknown) => caught,
    );
    expect(isBacktrackError(error, "replay_failed")).toBe(true);
    expect((error as ReplayFailedError).newRunId).toBe("order-123-diverged");
    expect((error as ReplayFailedError).cause).toBeInstanceOf(NoRecordedOutputError);
    expect((await store.run("order-123-diverged"))?.status).toBe("failed");
  });

  it("checkReplay passes an identical replay and fails a run that is not complete", async () => {
    const check = await checkReplay({ journal: store, runId: "order-123", registry });
    expect(check).toMatchObject({ ok: true, expected: "Charged $500.00 for order 123 (receipt rcpt-123-500).", actual: "Charged $500.00 for order 123 (receipt rcpt-123-500)." });
    expect(check.diff.divergentAt).toBeNull();
    const incomplete = await checkReplay({ journal: store, runId: "order-123-diverged", registry }).catch((caught: unknown) => caught);
    expect(isBacktrackError(incomplete, "bad_input")).toBe(true);
  });
});
