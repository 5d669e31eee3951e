/**
 * diffRuns / diffRecords: positional decision-by-decision comparison of two runs written by the
 * real loop, on MemStore, PGlite and the server; the opt-in realignment; regressionReport.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "@/lib/agent/agent";
import { tool } from "@/lib/agent/tool";
import { stableHash } from "@/lib/journal/canonical";
import { isBacktrackError } from "@/lib/journal/errors";
import type { Journal } from "@/lib/journal/ports";
import { scriptedModel, type ScriptedReply } from "@/lib/agent/scripted";
import { decisionPoints } from "@/lib/inspect/decision-points";
import { diffRecords } from "@/lib/inspect/diff";
import { shortestEdit } from "@/lib/inspect/realign";
import { diffRuns, regressionReport } from "@/lib/regression/diff-runs";
import { STORE_KINDS } from "../helpers/databases";

const lookup = tool({
  name: "lookup",
  description: "Look an order up.",
  input: z.object({ orderId: z.string(), fields: z.array(z.string()).optional() }).loose(),
  execute: ({ orderId }) => ({ orderId, total: 500, currency: "USD" }),
});
const charge = tool({
  name: "charge",
  description: "Charge an order.",
  input: z.object({ orderId: z.string(), amount: z.number() }),
  execute: ({ orderId, amount }) => ({ orderId, charged: amount }),
});
const audit = tool({
  name: "audit",
  description: "Audit an order.",
  input: z.object({ orderId: z.string() }),
  execute: ({ orderId }) => ({ orderId, ok: true }),
});

/** Runs an agent with these tools on a scripted model with the given replies. */
function drive(store: Journal, runId: string, modelId: string, replies: ScriptedReply[]) {
  const agent = new Agent({ name: "orders", model: scriptedModel(modelId, replies), store, tools: [lookup, charge, audit] });
  return agent.run(runId, "Charge order 7.");
}

const BASE: ScriptedReply[] = [
  { toolCalls: [{ name: "lookup", args: { orderId: "7", fields: ["total", "currency"] } }] },
  { toolCalls: [{ name: "charge", args: { orderId: "7", amount: 500 } }] },
  { text: "Charged $500." },
];

describe.each(STORE_KINDS)("diffRuns: $name", (kind) => {
  let store: Journal & { close(): Promise<void> };
  beforeAll(async () => {
    store = await kind.open();
  });
  afterAll(async () => {
    await store.close();
  });

  it("finds no difference between runs whose tool-call ids differ and whose argument keys come in another order", async () => {
    const reordered: ScriptedReply[] = [
      { toolCalls: [{ name: "lookup", args: { fields: ["total", "currency"], orderId: "7" } }] },
      { toolCalls: [{ name: "charge", args: { amount: 500, orderId: "7" } }] },
      { text: "Charged $500." },
    ];
    await drive(store, "ids-a", "model-a", BASE);
    await drive(store, "ids-b", "model-b", reordered);
    const idsA = (await store.history("ids-a")).flatMap((record) => (record.kind === "tool_result" ? [(record.payload as { toolCallId: string }).toolCallId] : []));
    const idsB = (await store.history("ids-b")).flatMap((record) => (record.kind === "tool_result" ? [(record.payload as { toolCallId: string }).toolCallId] : []));
    expect(idsA).toHaveLength(2);
    expect(idsA.some((id, index) => id === idsB[index])).toBe(false);
    const diff = await diffRuns(store, "ids-a", "ids-b");
    expect(diff.summary).toEqual({ same: 5, changed: 0, missing: 0, added: 0 });
    expect(diff.divergentAt).toBeNull();
    expect(diff.steps.map((entry) => `${entry.kind}@${entry.step}`)).toEqual(["model@0", "tool@0", "model@1", "tool@1", "model@2"]);
    const charged = diff.steps[3]?.detail;
    expect(charged?.argsHashA).toBe(stableHash({ orderId: "7", amount: 500 }));
    expect(charged?.argsHashA).toBe(charged?.argsHashB);
  });

  it("names the first differing decision and carries both sides' detail", async () => {
    await drive(store, "amount-a", "model", BASE);
    await drive(store, "amount-b", "model", [BASE[0] as ScriptedReply, { toolCalls: [{ name: "charge", args: { orderId: "7", amount: 5000 } }] }, { text: "Charged $5000." }]);
    const diff = await diffRuns(store, "amount-a", "amount-b");
    expect(diff.divergentAt).toBe(2);
    expect(diff.summary).toEqual({ same: 2, changed: 3, missing: 0, added: 0 });
    const model = diff.steps[2];
    expect(model).toMatchObject({ index: 2, step: 1, kind: "model", status: "changed" });
    expect(model?.detail.toolCallsA).toEqual([{ toolName: "charge", argsHash: stableHash({ orderId: "7", amount: 500 }), args: { orderId: "7", amount: 500 } }]);
    expect(model?.detail.toolCallsB?.[0]?.argsHash).toBe(stableHash({ amount: 5000, orderId: "7" }));
    const call = diff.steps[3];
    expect(call).toMatchObject({ kind: "tool", status: "changed", step: 1 });
    expect(call?.detail).toMatchObject({
      toolName: "charge",
      statusA: "succeeded",
      statusB: "succeeded",
      outputA: { orderId: "7", charged: 500 },
      outputB: { orderId: "7", charged: 5000 },
    });
    expect(diff.steps[4]?.detail).toMatchObject({ textA: "Charged $500.", textB: "Charged $5000." });
  });

  it("ends runs of different length in missing and added entries, and notes a structural mismatch", async () => {
    await drive(store, "short", "model", [{ text: "Nothing to do." }]);
    const longer = await diffRuns(store, "short", "amount-a");
    expect(longer.steps.map((entry) => entry.status)).toEqual(["changed", "added", "added", "added", "added"]);
    expect(longer.summary).toEqual({ same: 0, changed: 1, missing: 0, added: 4 });
    expect(longer.steps[1]?.detail).toMatchObject({ kindB: "tool", toolNameB: "lookup", statusB: "succeeded" });
    expect(longer.steps[1]?.detail.kindA).toBeUndefined();
    const shorter = await diffRuns(store, "amount-a", "short");
    expect(shorter.summary).toEqual({ same: 0, changed: 1, missing: 4, added: 0 });

    // B calls audit first: at index 1 A has a tool call where B has one too, at index 2 A has a model step where B has a tool call.
    await drive(store, "two-calls", "model", [
      {
        toolCalls: [
          { name: "lookup", args: { orderId: "7", fields: ["total", "currency"] } },
          { name: "audit", args: { orderId: "7" } },
        ],
      },
      ...BASE.slice(1),
    ]);
    const mismatch = await diffRuns(store, "amount-a", "two-calls");
    expect(mismatch.divergentAt).toBe(0);
    expect(mismatch.steps[1]?.status).toBe("same");
    expect(mismatch.steps[2]).toMatchObject({ kind: "model", status: "changed" });
    expect(mismatch.steps[2]?.detail.note).toBe("A has a model step (step 1) where B has a tool call (audit)");
  });

  it("reports a failed tool call's status and an unknown run as a typed error", async () => {
    await drive(store, "bad-args", "model", [{ toolCalls: [{ name: "charge", args: { orderId: "7", amount: "lots" } }] }, { text: "It failed." }]);
    await drive(store, "good-args", "model", [{ toolCalls: [{ name: "charge", args: { orderId: "7", amount: 5 } }] }, { text: "It failed." }]);
    const diff = await diffRuns(store, "good-args", "bad-args");
    expect(diff.steps[1]?.detail).toMatchObject({ statusA: "succeeded", statusB: "failed" });
    const error = await diffRuns(store, "good-args", "no-such-run").catch((caught: unknown) => caught);
    expect(isBacktrackError(error, "not_found")).toBe(true);
    const first = await diffRuns(store, "no-such-run", "good-args").catch((caught: unknown) => caught);
    expect(isBacktrackError(first, "not_found") && (first as Error).message).toContain("no-such-run");
  });

  it("realigns after the first divergence when asked, and marks it", async () => {
    await drive(store, "realign-b", "model", [{ toolCalls: [{ name: "audit", args: { orderId: "7" } }] }, ...BASE]);
    const positional = await diffRuns(store, "amount-a", "realign-b");
    expect(positional.alignment).toBe("positional");
    expect(positional.summary).toEqual({ same: 0, changed: 5, missing: 0, added: 2 });
    const realigned = await diffRuns(store, "amount-a", "realign-b", { realign: true });
    expect(realigned.alignment).toBe("realigned");
    expect(realigned.realign).toMatchObject({ applied: true, from: 0, edits: 2 });
    expect(realigned.divergentAt).toBe(0);
    expect(realigned.steps.map((entry) => entry.status)).toEqual(["added", "added", "same", "same", "same", "same", "same"]);
    expect(realigned.steps.every((entry) => entry.realigned === true)).toBe(true);
    expect(realigned.steps[2]).toMatchObject({ indexA: 0, indexB: 2, status: "same" });
    expect(realigned.summary).toEqual({ same: 5, changed: 0, missing: 0, added: 2 });

    const capped = diffRecords(await store.history("amount-a"), await store.history("realign-b"), { realign: true, realignMaxEdits: 1 });
    expect(capped.alignment).toBe("positional");
    expect(capped.realign).toMatchObject({ applied: false, from: 0 });
    expect(capped.realign?.reason).toMatch(/more than 1 insertions and deletions/);
    expect(capped.steps).toEqual(positional.steps);
  });

  it("regressionReport wraps the diff and runs the scorer it is given, and only that", async () => {
    const scored = await regressionReport(store, "amount-a", "amount-b", { scorer: (diff) => diff.summary.changed / diff.steps.length });
    expect(scored.baseRunId).toBe("amount-a");
    expect(scored.newRunId).toBe("amount-b");
    expect(scored.score).toBeCloseTo(3 / 5);
    expect(scored.diff).toEqual(await diffRuns(store, "amount-a", "amount-b"));
    const unscored = await regressionReport(store, "amount-a", "amount-b");
    expect(unscored.score).toBeNull();
  });
});

describe("decision points", () => {
  it("pairs each tool call with its result by position, not by tool-call id", () => {
    const records = [
      { runId: "r", seq: 0, name: "run:start", kind: "header", payload: { input: "x", agent: "a", model: "m", tools: [] }, createdAt: "" },
      {
        runId: "r",
        seq: 1,
        name: "turn:0",
        kind: "model",
        payload: {
          message: {
            role: "assistant",
            content: [
              { type: "tool-call", toolCallId: "same-id", toolName: "one", args: {} },
              { type: "tool-call", toolCallId: "same-id", toolName: "two", args: { b: 1, a: 2 } },
            ],
          },
        },
        createdAt: "",
      },
      {
        runId: "r",
        seq: 2,
        name: "turn:0:call:1:result",
        kind: "tool_result",
        payload: { toolCallId: "same-id", toolName: "two", args: { a: 2, b: 1 }, result: "second", isError: false },
        createdAt: "",
      },
      {
        runId: "r",
        seq: 3,
        name: "turn:0:call:0:result",
        kind: "tool_result",
        payload: { toolCallId: "same-id", toolName: "one", args: {}, result: "first", isError: false },
        createdAt: "",
      },
    ];
    const points = decisionPoints(records);
    expect(points.map((point) => (point.kind === "tool" ? [point.toolName, point.output, point.seq] : "model"))).toEqual(["model", ["one", "first", 3], ["two", "second", 2]]);
    expect(points[2]?.kind === "tool" && points[2].argsHash).toBe(stableHash({ a: 2, b: 1 }));
  });
});

describe("realignment's edit script", () => {
  function lcsLength(a: number[], b: number[]): number {
    const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
    for (let i = 1; i <= a.length; i += 1) {
      for (let j = 1; j <= b.length; j += 1) {
        const row = table[i] as number[];
        row[j] = a[i - 1] === b[j - 1] ? (table[i - 1]?.[j - 1] ?? 0) + 1 : Math.max(table[i - 1]?.[j] ?? 0, row[j - 1] ?? 0);
      }
    }
    return table[a.length]?.[b.length] ?? 0;
  }

  it("is a longest common subsequence that covers both sequences in order (random cases against a DP table)", () => {
    let seed = 7;
    const random = (limit: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % limit;
    };
    for (let round = 0; round < 300; round += 1) {
      const a = Array.from({ length: random(30) }, () => random(4));
      const b = Array.from({ length: random(30) }, () => random(4));
      const ops = shortestEdit(a, b, 100);
      expect(ops).toBeDefined();
      const equal = ops?.filter((op) => op.type === "equal") ?? [];
      expect(equal.length).toBe(lcsLength(a, b));
      const fromA = (ops ?? []).flatMap((op) => (op.type === "insert" ? [] : [op.a]));
      const fromB = (ops ?? []).flatMap((op) => (op.type === "delete" ? [] : [op.b]));
      expect(fromA).toEqual(a.map((_, index) => index));
      expect(fromB).toEqual(b.map((_, index) => index));
      for (const op of equal) if (op.type === "equal") expect(a[op.a]).toBe(b[op.b]);
    }
  });

  it("gives up beyond its cap", () => {
    expect(shortestEdit([1, 2, 3], [4, 5, 6], 5)).toBeUndefined();
    expect(shortestEdit([1, 2, 3], [4, 5, 6], 6)).toHaveLength(6);
  });
});
