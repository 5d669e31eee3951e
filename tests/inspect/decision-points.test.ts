/**
 * Decision points and diff entries as the fast diff builds them: one pass over the records in any
 * order, arguments hashes computed on read (and equal to what hashing up front gave), entries whose
 * detail is built on read, and JSON and plain copies that carry everything.
 */
import { describe, expect, it } from "vitest";
import type { JournalRecord } from "@/lib/journal/types";
import { stableHash } from "@/lib/journal/canonical";
import { plainEntry } from "@/lib/inspect/compare";
import { DECISION_KINDS, decisionPoints, pointsOf, type ToolDecision } from "@/lib/inspect/decision-points";
import { diffRecords } from "@/lib/inspect/diff";
import { diffRows } from "@/lib/inspect/diff-view";
import { canonicalHash } from "@/lib/inspect/equal";
import { pointHash } from "@/lib/inspect/realign";

let seq = 0;
function record(name: string, kind: string, payload: unknown): JournalRecord {
  return { runId: "r", seq: seq++, name, kind, payload, createdAt: "" } as JournalRecord;
}
const model = (turn: number, calls: Array<[string, unknown]>, text = "") =>
  record(`turn:${turn}`, "model", {
    message: {
      role: "assistant",
      content: [{ type: "text", text }, ...calls.map(([toolName, args], index) => ({ type: "tool-call", toolCallId: `id-${turn}-${index}`, toolName, args }))],
    },
  });
const result = (turn: number, call: number, toolName: string, args: unknown, output: unknown, isError = false) =>
  record(`turn:${turn}:call:${call}:result`, "tool_result", { toolCallId: "x", toolName, args, result: output, isError });
const approval = (turn: number, call: number, approved: boolean) => record(`turn:${turn}:call:${call}:approval`, "approval", { toolCallId: "x", toolName: "t", approved });

describe("decision points", () => {
  it("are made of the DECISION_KINDS alone: a diff of those records equals the diff of the whole runs", () => {
    const attempt = (turn: number, call: number) => record(`turn:${turn}:call:${call}:attempt`, "attempt", { toolCallId: "x", toolName: "pay", args: {} });
    const runOf = (amount: number) => [
      record("run:start", "header", { input: "pay" }),
      model(0, [["pay", { amount }]], "paying"),
      attempt(0, 0),
      approval(0, 0, amount < 10),
      result(0, 0, "pay", { amount }, { ok: true }),
      record("memo", "value", { note: amount }),
      model(1, [["lookup", { id: 1 }]]),
      attempt(1, 0),
      result(1, 0, "lookup", { id: 1 }, { id: 1 }, amount > 10),
      record("turn:1:sleep", "sleep", { ms: 5 }),
      model(2, [], "done"),
      record("run:complete", "value", { value: "done" }),
    ];
    const [a, b] = [runOf(5), runOf(20)];
    const decisions = (records: JournalRecord[]) => records.filter((each) => DECISION_KINDS.includes(each.kind));
    const whole = diffRecords(a, b, { a: "a", b: "b" });
    expect(whole.divergentAt).not.toBeNull();
    expect(diffRecords(decisions(a), decisions(b), { a: "a", b: "b" })).toEqual(whole);
    expect(diffRecords(decisions(a), decisions(b), { a: "a", b: "b", realign: true })).toEqual(diffRecords(a, b, { a: "a", b: "b", realign: true }));
  });

  it("reads records in the loop's order in one pass, and any other order the same", () => {
    const inOrder = [
      record("run:start", "header", {}),
      model(
        0,
        [
          ["lookup", { id: 1 }],
          ["charge", { id: 1, amount: 5 }],
        ],
        "Looking.",
      ),
      result(0, 0, "lookup", { id: 1 }, { total: 5 }),
      approval(0, 1, false),
      result(0, 1, "charge", { amount: 5, id: 1 }, "denied", true),
      model(1, [["audit", { id: 1 }]]),
      model(2, [], "Done."),
    ];
    const points = decisionPoints(inOrder);
    expect(points.map((point) => (point.kind === "tool" ? `${point.toolName}:${point.status}` : `model@${point.step}`))).toEqual([
      "model@0",
      "lookup:succeeded",
      "charge:denied",
      "model@1",
      "audit:no_result",
      "model@2",
    ]);
    expect(points.map((point) => point.index)).toEqual([0, 1, 2, 3, 4, 5]);
    const reversed = decisionPoints([...inOrder].reverse());
    expect(JSON.stringify(reversed)).toBe(JSON.stringify(points));
  });

  it("marks a call denied whether its approval comes before or after its result, and only when it has a result", () => {
    const before = decisionPoints([model(0, [["pay", {}]]), approval(0, 0, false), result(0, 0, "pay", {}, null)]);
    const after = decisionPoints([model(0, [["pay", {}]]), result(0, 0, "pay", {}, null), approval(0, 0, false)]);
    const unanswered = decisionPoints([model(0, [["pay", {}]]), approval(0, 0, false)]);
    const approved = decisionPoints([model(0, [["pay", {}]]), approval(0, 0, true), result(0, 0, "pay", {}, null, true)]);
    expect([before, after, unanswered, approved].map((points) => (points[1] as ToolDecision).status)).toEqual(["denied", "denied", "no_result", "failed"]);
  });

  it("hashes arguments (as the diff's entries do on read), and keeps the hashes in JSON", () => {
    const points = decisionPoints([model(0, [["charge", { orderId: "7", amount: 500 }]]), result(0, 0, "charge", { amount: 500, orderId: "7" }, { ok: true })]);
    const [step, call] = points;
    expect(step?.kind === "model" && step.toolCalls[0]?.argsHash).toBe(stableHash({ orderId: "7", amount: 500 }));
    expect(call?.kind === "tool" && call.argsHash).toBe(stableHash({ orderId: "7", amount: 500 }));
    expect(JSON.parse(JSON.stringify(points))).toEqual([
      {
        kind: "model",
        index: 0,
        step: 0,
        seq: step?.seq,
        text: "",
        toolCalls: [{ toolName: "charge", argsHash: stableHash({ amount: 500, orderId: "7" }), args: { orderId: "7", amount: 500 } }],
      },
      {
        kind: "tool",
        index: 1,
        step: 0,
        seq: call?.seq,
        callIndex: 0,
        toolName: "charge",
        argsHash: stableHash({ orderId: "7", amount: 500 }),
        status: "succeeded",
        output: { ok: true },
      },
    ]);
  });
});

describe("diff entries", () => {
  const runA = [model(0, [["charge", { orderId: "7", amount: 500 }]], "Charging."), result(0, 0, "charge", { orderId: "7", amount: 500 }, { charged: 500 })];
  const runB = [model(0, [["charge", { amount: 5000, orderId: "7" }]], "Charging."), result(0, 0, "charge", { amount: 5000, orderId: "7" }, { charged: 5000 })];

  it("build their detail on read, with both sides' hashes, and give it whole in JSON and as plain objects", () => {
    const diff = diffRecords(runA, runB);
    const [modelEntry, toolEntry] = diff.steps;
    expect(diff.summary).toEqual({ same: 0, changed: 2, missing: 0, added: 0 });
    expect(toolEntry?.detail).toMatchObject({ argsHashA: stableHash({ orderId: "7", amount: 500 }), argsHashB: stableHash({ orderId: "7", amount: 5000 }) });
    expect(modelEntry?.detail.toolCallsB).toEqual([{ toolName: "charge", argsHash: stableHash({ orderId: "7", amount: 5000 }), args: { amount: 5000, orderId: "7" } }]);
    // Read twice, built once.
    expect(toolEntry?.detail).toBe(toolEntry?.detail);
    const json = JSON.parse(JSON.stringify(diff)) as typeof diff;
    expect(json.steps[1]?.detail.argsHashA).toBe(stableHash({ amount: 500, orderId: "7" }));
    expect(json.steps[0]?.detail.toolCallsA?.[0]?.argsHash).toBe(stableHash({ amount: 500, orderId: "7" }));
    for (const entry of diff.steps) {
      const plain = plainEntry(entry);
      expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
      expect(Object.getPrototypeOf(plain.detail)).toBe(Object.prototype);
      expect(JSON.parse(JSON.stringify(plain))).toEqual(JSON.parse(JSON.stringify(entry)));
      expect(plainEntry(plain)).toBe(plain);
    }
  });

  it("give rows a glance that hashes nothing, and rows equal to those of the detail", () => {
    const diff = diffRecords(runA, runB);
    const seen = diff.steps[1]?.glance?.();
    expect(seen).toBeDefined();
    expect(seen?.argsHashA).toBeUndefined();
    expect(seen).toMatchObject({ kindA: "tool", toolNameA: "charge", statusB: "succeeded" });
    const rows = diffRows(diff);
    const plainRows = diffRows({ steps: diff.steps.map(plainEntry) });
    expect(rows).toEqual(plainRows);
  });

  it("notes a structural mismatch in the detail", () => {
    const diff = diffRecords([model(0, [], "Nothing."), model(1, [])], [model(0, [["audit", {}]])]);
    expect(diff.steps[1]?.detail.note).toBe("A has a model step (step 1) where B has a tool call (audit)");
    expect(diff.steps[0]?.detail.note).toBeUndefined();
  });
});

describe("realignment's point numbers", () => {
  it("hash equal points alike whatever their key order, and never call two different points with one hash equal", () => {
    // Two outputs whose hashes collide (found by search; if the hash changes, find another pair).
    const [first, second] = ["out-354507", "out-1932100"];
    expect(canonicalHash(first)).toBe(canonicalHash(second));
    const runA = [model(0, [["charge", { a: 1, b: 2 }]]), result(0, 0, "charge", { a: 1, b: 2 }, first), model(1, [], "Done.")];
    const runB = [
      model(0, [["audit", {}]]),
      result(0, 0, "audit", {}, null),
      model(1, [["charge", { b: 2, a: 1 }]]),
      result(1, 0, "charge", { b: 2, a: 1 }, second),
      model(2, [], "Done."),
    ];
    const [pointA, pointB] = [pointsOf(runA)[1], pointsOf(runB)[3]];
    expect(pointA && pointB && pointHash(pointA) === pointHash(pointB)).toBe(true);
    const diff = diffRecords(runA, runB, { realign: true });
    expect(diff.realign).toMatchObject({ applied: true, from: 0 });
    // B's extra audit is added; the charge steps match (arguments equal in another key order), their outputs do not.
    expect(diff.steps.map((entry) => `${entry.kind}:${entry.status}`)).toEqual(["model:added", "tool:added", "model:same", "tool:changed", "model:same"]);
    expect(diff.steps[3]?.detail).toMatchObject({ outputA: first, outputB: second });
  });
});
