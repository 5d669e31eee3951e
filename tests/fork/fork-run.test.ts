/**
 * forkRun on MemStore, PGlite and the server: order-123 forked at its tool result with the result
 * edited (the diff's first divergence is that step), lineage in header and summary, the copy left
 * byte-identical, edits of every kind, typed refusals that write nothing, and fork_effect halts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "@/lib/agent/agent";
import type { HeaderPayload, ToolResultPayload } from "@/lib/agent/payloads";
import { Registry } from "@/lib/agent/registry";
import { tool } from "@/lib/agent/tool";
import { demoModel } from "@/lib/demo/models";
import { demoRegistry } from "@/lib/demo/registry";
import { forkPlan, forkRun } from "@/lib/fork";
import { isBacktrackError } from "@/lib/journal/errors";
import type { Journal } from "@/lib/journal/ports";
import { resolveHalt } from "@/lib/recovery/pause-decisions";
import { resumeRoot } from "@/lib/recovery/actions";
import { diffRuns } from "@/lib/regression/diff-runs";
import { STORE_KINDS } from "../helpers/databases";
import { storedRecords, writeDemoRuns } from "../regression/helpers";

/** A billing agent whose charge tool counts its real runs. */
function countingRegistry(charges: { n: number }): Registry {
  const charge = tool({
    name: "chargeCard",
    description: "Charge an order.",
    input: z.object({ orderId: z.string(), amount: z.number() }),
    execute: ({ orderId, amount }) => {
      charges.n += 1;
      return { charged: amount, orderId, receipt: `rcpt-${orderId}-${amount}` };
    },
  });
  return new Registry()
    .registerModel({ name: "demo/v1", create: () => demoModel("v1") })
    .registerModel({ name: "demo/v2", create: () => demoModel("v2") })
    .registerAgent({ name: "billing", create: (store, model) => new Agent({ name: "billing", model: model ?? demoModel("v1"), store, tools: [charge] }) });
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(isBacktrackError(error)).toBe(true);
  return (error as { code: string }).code;
}

describe.each(STORE_KINDS)("forkRun: $name", (kind) => {
  let store: Journal & { close(): Promise<void> };
  const registry = demoRegistry();

  beforeAll(async () => {
    store = await kind.open();
    await writeDemoRuns(store, "order-123", "trip-42");
  });
  afterAll(async () => {
    await store.close();
  });

  it("forks order-123 at its tool result with an edited result: copies before it, edited there, live after", async () => {
    const before = await storedRecords(store, "order-123");
    const source = await store.history("order-123");
    const at = source.findIndex((record) => record.kind === "tool_result");
    const forked = await forkRun(store, "order-123", { at, edit: { kind: "result", result: { charged: 450, orderId: "123", receipt: "rcpt-discount" } }, registry });
    expect(forked).toMatchObject({ newRunId: "order-123~fork-1", forkedFrom: { runId: "order-123", at }, status: "complete", model: "demo/v1" });
    expect(forked.result?.text).toBe("Charged $450.00 for order 123 (receipt rcpt-discount).");

    const records = await store.history(forked.newRunId);
    expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index));
    expect((records[0]?.payload as HeaderPayload).forkedFrom).toEqual({ runId: "order-123", at });
    for (const record of records.slice(1, at)) {
      const original = source[record.seq]!;
      expect([record.name, record.kind, record.payload, record.createdAt]).toEqual([original.name, original.kind, original.payload, original.createdAt]);
    }
    const edited = records[at]?.payload as ToolResultPayload & { edited: { original: ToolResultPayload } };
    expect(edited.result).toEqual({ charged: 450, orderId: "123", receipt: "rcpt-discount" });
    expect(edited.edited.original.result).toEqual(source[at]?.payload && (source[at]!.payload as ToolResultPayload).result);

    const summary = await store.run(forked.newRunId);
    expect(summary).toMatchObject({ origin: "fork", forkedFrom: { runId: "order-123", at }, agent: "billing", status: "complete", modelTurns: 2, toolCalls: 1 });
    expect((await store.runs({ forkOf: "order-123" })).runs.map((run) => run.runId)).toEqual([forked.newRunId]);

    const diff = await diffRuns(store, "order-123", forked.newRunId);
    expect(diff.steps[0]?.status).toBe("same");
    expect(diff.divergentAt).toBe(1);
    expect(diff.steps[1]?.detail.seqB).toBe(at);
    expect(await storedRecords(store, "order-123")).toBe(before);
  });

  it("copies the sub-agent runs started before the step, renamed, and leaves those after it to run live", async () => {
    const sourceParent = await storedRecords(store, "trip-42");
    const sourceChild = await storedRecords(store, "trip-42.t0c0");
    const source = await store.history("trip-42");
    const signal = source.find((record) => record.kind === "signal")!;
    const after = source.find((record) => record.kind === "model" && record.seq > signal.seq)!;
    const late = await forkRun(store, "trip-42", { at: after.seq, edit: { kind: "text", text: "Plan: take the night train." }, registry, newRunId: "trip-42~late" });
    expect(late).toMatchObject({ status: "complete" });
    // The copy of the researcher's run hangs under the fork, whole, and the fork's records name it.
    expect(await store.run("trip-42~late.t0c0")).toMatchObject({ parentRunId: "trip-42~late", origin: "fork", agent: "researcher", status: "complete" });
    const child = await store.history("trip-42.t0c0");
    const copiedChild = await store.history("trip-42~late.t0c0");
    expect(copiedChild.map(({ runId: _runId, payload, ...rest }) => ({ ...rest, payload }))).toEqual(
      child.map(({ runId: _runId, payload, ...rest }) => ({ ...rest, payload: rest.kind === "header" ? { ...(payload as object), parentRunId: "trip-42~late" } : payload })),
    );
    const forked = await store.history("trip-42~late");
    expect(forked[signal.seq]?.payload).toMatchObject({ type: "subagent", childRunId: "trip-42~late.t0c0" });
    const result = forked.find((record) => record.kind === "tool_result")!.payload as ToolResultPayload;
    expect(result.childRunIds).toEqual(["trip-42~late.t0c0"]);
    expect(result.result).toEqual((source.find((record) => record.kind === "tool_result")!.payload as ToolResultPayload).result);
    // Forked before the research call was made, the researcher runs again, live, under the fork.
    const attempt = source.find((record) => record.kind === "attempt")!;
    const early = await forkRun(store, "trip-42", { at: attempt.seq, registry, allowEffects: true, newRunId: "trip-42~early" });
    expect(early).toMatchObject({ status: "complete" });
    expect(await store.run("trip-42~early.t0c0")).toMatchObject({ parentRunId: "trip-42~early", origin: "agent", status: "complete" });
    // The sources are untouched; deleting a fork removes its copies with it.
    expect(await storedRecords(store, "trip-42")).toBe(sourceParent);
    expect(await storedRecords(store, "trip-42.t0c0")).toBe(sourceChild);
    expect((await store.deleteRun("trip-42~late")).runs).toEqual(["trip-42~late", "trip-42~late.t0c0"]);
    expect(await store.run("trip-42.t0c0")).toMatchObject({ parentRunId: "trip-42", status: "complete" });
  });

  it("refuses bad forks with typed errors and writes nothing", async () => {
    const count = async () => (await store.runs({ forkOf: "order-123", limit: 100 })).runs.length;
    const forks = await count();
    const source = await store.history("order-123");
    const model = source.findIndex((record) => record.kind === "model");
    const result = source.findIndex((record) => record.kind === "tool_result");
    expect(await refusal(forkRun(store, "order-123", { at: source.length, registry }))).toBe("bad_fork");
    expect(await refusal(forkRun(store, "order-123", { at: 0, registry }))).toBe("bad_fork");
    expect(await refusal(forkRun(store, "order-123", { at: model, edit: { kind: "result", result: 1 }, registry }))).toBe("bad_fork");
    expect(await refusal(forkRun(store, "order-123", { at: result, edit: { kind: "text", text: "hi" }, registry }))).toBe("bad_fork");
    expect(await refusal(forkRun(store, "order-123", { at: result, registry }))).toBe("bad_fork");
    expect(await refusal(forkRun(store, "order-123", { at: result, edit: { kind: "args", args: {} }, registry }))).toBe("bad_fork");
    expect(await refusal(forkRun(store, "order-123", { at: model, edit: { kind: "args", args: {}, call: 3 }, registry }))).toBe("bad_fork");
    expect(await refusal(forkRun(store, "order-123", { at: result, edit: { kind: "error", error: "x" }, model: "gpt-9", registry }))).toBe("missing_model");
    expect(await refusal(forkRun(store, "order-123", { at: result, edit: { kind: "error", error: "x" }, registry: new Registry() }))).toBe("missing_model");
    expect(await refusal(forkRun(store, "no-such-run", { at: 1, registry }))).toBe("not_found");
    await store.append({ runId: "headless", name: "step-a", kind: "value", payload: { value: 1 } });
    await store.append({ runId: "headless", name: "step-b", kind: "value", payload: { value: 2 } });
    expect(await refusal(forkRun(store, "headless", { at: 1, registry }))).toBe("no_recorded_input");
    expect(await count()).toBe(forks);
  });

  it("halts before an external tool without allowEffects, then Allow / Give result / Fail resolve it", async () => {
    const charges = { n: 0 };
    const counting = countingRegistry(charges);
    const source = await counting.agent("billing", store).run("bill-8", "Please charge order 8.");
    expect(source.role).toBe("assistant");
    expect(charges.n).toBe(1);
    const at = (await store.history("bill-8")).findIndex((record) => record.kind === "model");

    const plan = await forkPlan(store, "bill-8", { at, edit: { kind: "args", args: { orderId: "8", amount: 900 } }, registry: counting });
    expect(plan.tools).toEqual([{ name: "chargeCard", effects: "external", pending: true, halts: true }]);

    const outcomes: Array<[string, (runId: string) => Promise<unknown>, string]> = [
      ["allow", (runId) => resolveHalt(store, runId, { outcome: "retry", by: "test" }), "Charged $900.00 for order 8 (receipt rcpt-8-900)."],
      ["give", (runId) => resolveHalt(store, runId, { outcome: "succeeded", result: { charged: 1, receipt: "given" }, by: "test" }), "Charged $1.00 for order 8 (receipt given)."],
      ["fail", (runId) => resolveHalt(store, runId, { outcome: "failed", reason: "not in a fork", by: "test" }), "I could not charge order 8:"],
    ];
    for (const [label, resolve, text] of outcomes) {
      const charged = charges.n;
      const forked = await forkRun(store, "bill-8", { at, edit: { kind: "args", args: { orderId: "8", amount: 900 } }, registry: counting });
      expect(forked.status, label).toBe("paused");
      expect(forked.pause).toMatchObject({ reason: "halt", halt: "fork_effect", toolName: "chargeCard" });
      expect(charges.n, "nothing was charged before a person decided").toBe(charged);
      await resolve(forked.newRunId);
      const resumed = await resumeRoot(store, counting, forked.newRunId, {});
      expect(resumed.resumed.outcome, label).toBe("complete");
      const done = await store.record(forked.newRunId, "run:complete");
      expect(JSON.stringify(done?.payload)).toContain(text);
    }
    expect(charges.n).toBe(2);

    const allowed = await forkRun(store, "bill-8", { at, allowEffects: true, registry: counting });
    expect(allowed.status).toBe("complete");
    expect(charges.n).toBe(3);
  });

  it("inserts a user message before a model turn, and edits text, values and approvals", async () => {
    const source = await store.history("order-123");
    const model = source.findLast((record) => record.kind === "model")!;
    const inserted = await forkRun(store, "order-123", { at: model.seq, edit: { kind: "user_message", text: "Also say thanks." }, registry });
    expect(inserted.status).toBe("complete");
    const records = await store.history(inserted.newRunId);
    expect(records[model.seq]).toMatchObject({ name: "turn:1:user", kind: "signal", payload: { type: "user_message", text: "Also say thanks." } });

    const text = await forkRun(store, "order-123", { at: model.seq, edit: { kind: "text", text: "All done." }, registry });
    expect(text.result?.text).toBe("All done.");
    expect(await refusal(forkRun(store, "order-123", { at: source.length - 1, edit: { kind: "value", value: 1 }, registry }))).toBe("bad_fork");
  });

  it("runs a repeated call live with the original run's idempotency key, through a fork of a fork; changed arguments get a new key", async () => {
    const keys: string[] = [];
    const charge = tool({
      name: "chargeCard",
      description: "Charge an order.",
      input: z.object({ orderId: z.string(), amount: z.number() }),
      execute: ({ orderId, amount }, context) => (keys.push(context.idempotencyKey), { charged: amount, orderId, receipt: `rcpt-${orderId}-${amount}` }),
    });
    const keyed = new Registry()
      .registerModel({ name: "demo/v1", create: () => demoModel("v1") })
      .registerAgent({ name: "billing", create: (journal, model) => new Agent({ name: "billing", model: model ?? demoModel("v1"), store: journal, tools: [charge] }) });
    await keyed.agent("billing", store).run("keyed-order", "Please charge order 55.");
    const source = await store.history("keyed-order");
    const attempt = source.find((record) => record.kind === "attempt")!;
    const original = (attempt.payload as { idempotencyKey: string }).idempotencyKey;
    expect(keys).toEqual([original]);

    const again = await forkRun(store, "keyed-order", { at: attempt.seq, registry: keyed, allowEffects: true });
    expect(again.status).toBe("complete");
    const twice = await forkRun(store, again.newRunId, { at: attempt.seq, registry: keyed, allowEffects: true });
    expect(twice.status).toBe("complete");
    expect(keys).toEqual([original, original, original]);
    for (const runId of [again.newRunId, twice.newRunId]) {
      expect(((await store.record(runId, attempt.name))?.payload as { idempotencyKey: string }).idempotencyKey).toBe(original);
    }

    const model = source.find((record) => record.kind === "model")!;
    await forkRun(store, "keyed-order", { at: model.seq, edit: { kind: "args", args: { orderId: "55", amount: 1 } }, registry: keyed, allowEffects: true });
    expect(keys).toHaveLength(4);
    expect(keys[3]).not.toBe(original);
  });
});
