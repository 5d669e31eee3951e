/**
 * tryStep on MemStore, PGlite and the server: the charge decision of the demo's order-123 re-run
 * with its exact journaled request (rebuilt by the loop itself), the split of ten tries with an
 * edited system prompt, each try journaled as a `playground` run that diffs against the source at
 * that step, Fork with this going live from a try, and typed refusals that run and write nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelRequest } from "@/lib/agent/model";
import { scriptedModel } from "@/lib/agent/scripted";
import { demoRegistry } from "@/lib/demo/registry";
import { isBacktrackError } from "@/lib/journal/errors";
import type { Journal } from "@/lib/journal/ports";
import { forkTry, tryStep } from "@/lib/playground";
import { diffRuns } from "@/lib/regression/diff-runs";
import { STORE_KINDS } from "../helpers/databases";
import { writeDemoRuns } from "../regression/helpers";

const EDITED = "You are the billing agent. Confirm the amount with the customer when in doubt.";

describe.each(STORE_KINDS)("tryStep: $name", (kind) => {
  let store: Journal & { close(): Promise<void> };
  let chargeAt: number;
  beforeAll(async () => {
    store = await kind.open();
    await writeDemoRuns(store, "order-123");
    chargeAt = (await store.record("order-123", "turn:0"))!.seq;
  });
  afterAll(async () => {
    await store.close();
  });

  it("asks the turn's journaled request: system prompt, messages and tools as the run sent them", async () => {
    const asked: ModelRequest[] = [];
    const registry = demoRegistry().registerModel({ name: "spy", create: () => scriptedModel("spy", (request) => (asked.push(request), { text: "ok" })) });
    const tried = await tryStep(store, "order-123", chargeAt, { registry, model: "spy", times: 2, journal: false });
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatchObject({ system: "You are the billing agent. Charge orders as asked.", messages: [{ role: "user", content: "Please charge order 123." }], seed: 0 });
    expect(asked[0]?.tools.map((tool) => tool.name)).toEqual(["chargeCard"]);
    expect(asked[1]?.seed).toBe(1);
    expect(tried.request.tools).toEqual(["chargeCard"]);
    expect(tried.tries.map((each) => each.runId)).toEqual([undefined, undefined]);
    expect(tried.summary.line).toBe("text in 2 of 2; 0 of 2 as recorded");
  });

  it("splits ten tries of the charge decision under an edited system prompt, each journaled as a playground run", async () => {
    const before = (await store.runs({ limit: 500 })).runs.length;
    const tried = await tryStep(store, "order-123", chargeAt, { registry: demoRegistry(), times: 10, edits: { system: EDITED } });
    expect(tried).toMatchObject({ runId: "order-123", at: chargeAt, turn: 0, model: "demo/v1", edited: true, request: { system: EDITED } });
    const asks = tried.tries.filter((each) => each.message.content.every((part) => part.type === "text")).length;
    const charges = tried.summary.outcomes.find((outcome) => outcome.key === "tool:chargeCard");
    expect(asks).toBeGreaterThan(0);
    expect(charges?.count).toBe(10 - asks);
    expect(charges?.recorded).toBe(true);
    const amounts = tried.tries.flatMap((each) => each.message.content.flatMap((part) => (part.type === "tool-call" ? [(part.args as { amount: number }).amount] : [])));
    const differing = amounts.filter((amount) => amount !== 500).length;
    expect(tried.summary.differences).toEqual(differing > 0 ? [{ tool: "chargeCard", argument: "amount", count: differing }] : []);
    expect(tried.summary.line).toContain(`tool \`chargeCard\` in ${10 - asks} of 10`);
    expect(tried.summary.asRecorded).toBe(10 - asks - differing);
    // Deterministic per seed: the same tries again give the same split.
    const again = await tryStep(store, "order-123", chargeAt, { registry: demoRegistry(), times: 10, edits: { system: EDITED }, journal: false });
    expect(again.summary).toEqual(tried.summary);

    const runIds = tried.tries.map((each) => each.runId);
    expect(new Set(runIds).size).toBe(10);
    expect((await store.runs({ limit: 500 })).runs.length).toBe(before + 10);
    const first = await store.run(runIds[0]!);
    expect(first).toMatchObject({ origin: "playground", status: "complete", forkedFrom: { runId: "order-123", at: chargeAt } });
    const header = (await store.record(runIds[0]!, "run:start"))?.payload;
    expect(header).toMatchObject({ system: EDITED, tryOf: { runId: "order-123", at: chargeAt, try: 0 } });
    // A try that asked instead of charging differs from the source at that very step.
    const asking = tried.tries.find((each) => each.message.content.every((part) => part.type === "text"))!;
    expect(asking.diff?.some((part) => part.change === "added")).toBe(true);
    const diff = await diffRuns(store, "order-123", asking.runId!);
    expect(diff.divergentAt).toBe(0);
    // The run's first decision (the charge, at the tried turn) is where they part.
    expect(diff.steps[0]?.status).not.toBe("same");
  });

  it("forks a chosen try and goes on live from its output", async () => {
    const tried = await tryStep(store, "order-123", chargeAt, { registry: demoRegistry(), times: 10, edits: { system: EDITED } });
    const larger = tried.tries.find((each) => each.message.content.some((part) => part.type === "tool-call" && (part.args as { amount: number }).amount === 5000))!;
    expect(larger).toBeDefined();
    const forked = await forkTry(store, larger.runId!, { registry: demoRegistry(), allowEffects: true });
    expect(forked).toMatchObject({ status: "complete", forkedFrom: { runId: larger.runId, at: chargeAt + 1 } });
    const result = (await store.record(forked.newRunId, "turn:0:call:0:result"))?.payload;
    expect(result).toMatchObject({ toolName: "chargeCard", result: { charged: 5000 } });
    expect(await store.run(forked.newRunId)).toMatchObject({ origin: "fork", status: "complete" });
  });

  it("refuses a step that is no model turn, times out of range, an unknown model or a non-try fork, writing nothing", async () => {
    const before = (await store.runs({ limit: 500 })).runs.length;
    const code = async (promise: Promise<unknown>) => {
      const error = await promise.then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(isBacktrackError(error)).toBe(true);
      return (error as { code: string }).code;
    };
    const registry = demoRegistry();
    expect(await code(tryStep(store, "order-123", 0, { registry }))).toBe("bad_try");
    expect(await code(tryStep(store, "order-123", chargeAt + 1, { registry }))).toBe("bad_try");
    expect(await code(tryStep(store, "order-123", chargeAt, { registry, times: 21 }))).toBe("bad_try");
    expect(await code(tryStep(store, "order-123", chargeAt, { registry, times: 0 }))).toBe("bad_try");
    expect(await code(tryStep(store, "order-123", chargeAt, { registry, model: "gpt-nope" }))).toBe("missing_model");
    expect(await code(tryStep(store, "no-such-run", 1, { registry }))).toBe("not_found");
    expect(await code(forkTry(store, "order-123", { registry }))).toBe("bad_try");
    expect((await store.runs({ limit: 500 })).runs.length).toBe(before);
  });
});
