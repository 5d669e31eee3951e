/** The timeline projections over runs written by the real agent loop (scripted models). */
import { beforeAll, describe, expect, it } from "vitest";
import { auditorAgent, billingAgent, plannerAgent } from "@/lib/demo/agents";
import { MemStore } from "@/lib/journal/memory-store";
import type { JournalRecord } from "@/lib/journal/types";
import { buildFlow } from "@/lib/inspect/flow";
import { outline, outlineEntry } from "@/lib/inspect/outline";
import { clampStep, countThrough, extendTimeline, stateAt, summaryAt, timelineOf } from "@/lib/inspect/timeline";

describe("timeline", () => {
  const store = new MemStore();
  let order: JournalRecord[];
  let failing: JournalRecord[];
  let trip: JournalRecord[];
  let audit: JournalRecord[];

  beforeAll(async () => {
    await billingAgent(store).run("order-123", "Please charge order 123.");
    await billingAgent(store).run("order-404", "Please charge order 404.");
    await plannerAgent(store).run("trip-42", "Plan my trip from Lisbon to Berlin on Friday.");
    await auditorAgent(store).run("audit-20", "Audit 20 accounts for anomalies.");
    order = await store.history("order-123");
    failing = await store.history("order-404");
    trip = await store.history("trip-42");
    audit = await store.history("audit-20");
  });

  it("outlines each record with the flow node buildFlow draws for it", () => {
    for (const records of [order, failing, trip, audit]) {
      const timeline = timelineOf(outline(records));
      expect(timeline.nodes).toEqual(buildFlow(records));
      expect(timeline.entries.map((entry) => entry.seq)).toEqual(records.map((record) => record.seq));
    }
    expect(order.map((record) => outlineEntry(record).title)).toEqual([
      "run:start: Please charge order 123.",
      "LLM → chargeCard",
      "attempt: chargeCard",
      "tool: chargeCard",
      expect.stringMatching(/^LLM: Charged \$500\.00 for order 123/),
      "run:complete",
    ]);
  });

  it("gives the run as of each step: usage, counts, status and the flow node", () => {
    const timeline = timelineOf(outline(order));
    const model0 = order[1]!.payload as { usage: { inputTokens: number; outputTokens: number } };
    const model1 = order[4]!.payload as { usage: { inputTokens: number; outputTokens: number } };
    const start = summaryAt(timeline, 0);
    expect(start).toMatchObject({ at: 0, modelTurns: 0, toolCalls: 0, nodeIndex: -1, status: "running", usage: { inputTokens: 0, outputTokens: 0 } });
    const attempt = summaryAt(timeline, 2);
    expect(attempt).toMatchObject({ at: 2, modelTurns: 1, toolCalls: 0, nodeIndex: 0, status: "running" });
    expect(attempt.usage).toEqual(model0.usage);
    expect(attempt.entry?.title).toBe("attempt: chargeCard");
    const end = summaryAt(timeline, 5);
    expect(end).toMatchObject({ modelTurns: 2, toolCalls: 1, failedToolCalls: 0, nodeIndex: 3, status: "complete" });
    expect(end.usage.inputTokens).toBe(model0.usage.inputTokens + model1.usage.inputTokens);
    // Out of range steps clamp to the run.
    expect(summaryAt(timeline, 99).at).toBe(5);
    expect(summaryAt(timeline, -3).at).toBe(0);
  });

  it("counts failed tool calls and shows a paused or failed run's state only at its last step", () => {
    const timeline = timelineOf(outline(failing));
    const last = failing.length - 1;
    expect(summaryAt(timeline, last).failedToolCalls).toBe(1);
    const pause = { reason: "approval" as const, runId: "x", message: "waits" };
    const run = { runId: "x", status: "paused" as const, pause, lastSeq: 3 };
    const short = timelineOf(outline(failing.slice(0, 4)));
    expect(summaryAt(short, 3, run)).toMatchObject({ status: "paused", pause });
    expect(summaryAt(short, 2, run)).toMatchObject({ status: "running", pause: null });
  });

  it("extends a timeline with new entries exactly as building it whole, ignoring repeats", () => {
    const entries = outline(audit);
    const whole = timelineOf(entries);
    let grown = timelineOf(entries.slice(0, 7));
    grown = extendTimeline(grown, entries.slice(5, 30));
    grown = extendTimeline(grown, entries.slice(30));
    grown = extendTimeline(grown, entries.slice(10, 12));
    expect(grown.nodes).toEqual(whole.nodes);
    expect([...grown.modelTurns]).toEqual([...whole.modelTurns]);
    expect([...grown.inputTokens]).toEqual([...whole.inputTokens]);
    expect(grown.conversationSteps).toEqual(whole.conversationSteps);
    expect(grown.completeStep).toBe(whole.completeStep);
  });

  it("stops at a gap in the seqs instead of misplacing steps", () => {
    const entries = outline(order);
    const timeline = extendTimeline(timelineOf(entries.slice(0, 2)), entries.slice(3));
    expect(timeline.entries).toHaveLength(2);
  });

  it("stateAt gives the conversation, tool results and sub-agent runs so far", () => {
    const atCall = stateAt(order, 2);
    expect(atCall.record?.kind).toBe("attempt");
    expect(atCall.conversation.map((item) => item.role)).toEqual(["system", "user", "assistant"]);
    const assistant = atCall.conversation[2]!;
    expect(assistant.role === "assistant" && assistant.toolCalls[0]).toMatchObject({ toolName: "chargeCard", args: { orderId: "123", amount: 500 } });
    expect(atCall.toolResults).toEqual([]);
    const end = stateAt(order, 5);
    expect(end.toolResults).toEqual([expect.objectContaining({ toolName: "chargeCard", isError: false, result: expect.objectContaining({ charged: 500 }) })]);
    expect(end.conversation.at(-1)).toMatchObject({ role: "assistant", toolCalls: [] });
    const tripEnd = stateAt(trip, trip.length - 1);
    expect(tripEnd.childRunIds).toEqual(["trip-42.t0c0"]);
    expect(tripEnd.toolResults[0]?.childRunIds).toEqual(["trip-42.t0c0"]);
    expect(stateAt([], 4)).toMatchObject({ at: 0, lastSeq: -1, record: undefined, conversation: [] });
  });

  it("shows a record of an unknown kind as unknown, in the outline and the flow", () => {
    const record: JournalRecord = { runId: "r", seq: 0, name: "x", kind: "telemetry", payload: { a: 1 }, createdAt: new Date().toISOString() };
    expect(outlineEntry(record)).toMatchObject({ title: "unknown kind: telemetry", unknown: true, node: { kind: "unknown", label: "unknown: telemetry" } });
  });

  it("a paused run pauses at its interrupt or sleep signal", () => {
    const at = new Date().toISOString();
    const records: JournalRecord[] = [
      { runId: "p", seq: 0, name: "run:start", kind: "header", payload: { input: "hi" }, createdAt: at },
      { runId: "p", seq: 1, name: "turn:0:call:0:sleep", kind: "signal", payload: { type: "sleep", wakeAt: "2030-01-01T00:00:00Z" }, createdAt: at },
      { runId: "p", seq: 2, name: "turn:0:call:0:result", kind: "tool_result", payload: { toolName: "wait", isError: false }, createdAt: at },
    ];
    const timeline = timelineOf(outline(records));
    expect(summaryAt(timeline, 1)).toMatchObject({ status: "paused", pause: { reason: "sleep", message: "sleep until 2030-01-01T00:00:00Z" } });
    expect(summaryAt(timeline, 2)).toMatchObject({ status: "running", pause: null });
  });

  it("helpers: countThrough and clampStep", () => {
    expect(countThrough([1, 3, 5, 7], 0)).toBe(0);
    expect(countThrough([1, 3, 5, 7], 5)).toBe(3);
    expect(countThrough([1, 3, 5, 7], 9)).toBe(4);
    expect(clampStep(Number.NaN, 5)).toBe(0);
    expect(clampStep(2.7, 5)).toBe(2);
    expect(clampStep(3, -1)).toBe(0);
  });
});
