/** The waterfall: bars from the outline's times, lanes for parallel calls, the critical path, windows. */
import { describe, expect, it } from "vitest";
import { outline, wireEntry } from "@/lib/inspect/outline";
import { barIndexAt, layoutWaterfall, waterfallOf, waterfallView, waterfallWindow } from "@/lib/inspect/waterfall";
import { turnsOf } from "@/lib/inspect/bar-columns";
import { ChunkedTimeline, outlineChunk } from "@/lib/inspect/outline-chunk";
import { runCost } from "@/lib/agent/pricing";
import type { JournalRecord } from "@/lib/journal/types";

const T0 = Date.parse("2026-01-01T00:00:00.000Z");
const iso = (ms: number) => new Date(T0 + ms).toISOString();

function records(specs: Array<{ name: string; kind: string; payload: Record<string, unknown>; at: number }>): JournalRecord[] {
  return specs.map((spec, seq) => ({ runId: "r", seq, name: spec.name, kind: spec.kind, payload: spec.payload, createdAt: iso(spec.at) }));
}

const model = (name: string, start: number, duration: number, extra: Record<string, unknown> = {}) => ({
  name,
  kind: "model",
  at: start + duration,
  payload: { message: { role: "assistant", content: [] }, usage: { inputTokens: 1_000_000, outputTokens: 0 }, model: "m", durationMs: duration, startedAt: iso(start), ...extra },
});
const result = (name: string, start: number, duration: number, extra: Record<string, unknown> = {}) => ({
  name,
  kind: "tool_result",
  at: start + duration,
  payload: { toolName: name, args: {}, result: null, isError: false, durationMs: duration, startedAt: iso(start), ...extra },
});

describe("waterfallOf", () => {
  it("draws one bar per model turn and tool call, from start to end, sequential work in one lane", () => {
    const run = records([
      { name: "run:start", kind: "header", at: 0, payload: { input: "go" } },
      model("turn:0", 0, 100),
      { name: "a:attempt", kind: "attempt", at: 100, payload: { toolName: "a" } },
      result("a", 100, 50),
      model("turn:1", 150, 30),
      { name: "run:complete", kind: "value", at: 180, payload: { value: null } },
    ]);
    const waterfall = waterfallOf(outline(run), { m: { input: 2, output: 0 } });
    expect(waterfall.bars.map((bar) => [bar.seq, bar.kind, bar.startMs, bar.durationMs, bar.lane])).toEqual([
      [1, "model", 0, 100, 0],
      [3, "tool", 100, 50, 0],
      [4, "model", 150, 30, 0],
    ]);
    expect(waterfall.lanes).toBe(1);
    expect(waterfall.spanMs).toBe(180);
    expect(waterfall.originMs).toBe(T0);
    // Everything is on the critical path of a sequential run.
    expect(waterfall.bars.every((bar) => bar.critical)).toBe(true);
    expect(waterfall.criticalMs).toBe(180);
    expect(waterfall.bars[0]).toMatchObject({ model: "m", costUsd: 2, timed: true });
  });

  it("puts parallel calls in parallel lanes and marks only the longest on the critical path", () => {
    const run = records([model("turn:0", 0, 10), result("fast", 10, 20), result("slow", 10, 80), result("mid", 12, 40), model("turn:1", 90, 10)]);
    const bars = waterfallOf(outline(run)).bars;
    const byName = Object.fromEntries(bars.map((bar) => [bar.label, bar]));
    expect(byName["tool: fast"]).toMatchObject({ lane: 0, critical: false });
    expect(byName["tool: slow"]).toMatchObject({ lane: 1, critical: true });
    expect(byName["tool: mid"]).toMatchObject({ lane: 2, critical: false });
    expect(bars.filter((bar) => bar.kind === "model").every((bar) => bar.critical)).toBe(true);
    expect(waterfallOf(outline(run)).lanes).toBe(3);
  });

  it("reads old records without startedAt: they end when written and start their duration before", () => {
    const run = records([
      {
        name: "turn:0",
        kind: "model",
        at: 500,
        payload: { message: { role: "assistant", content: [] }, usage: { inputTokens: 1, outputTokens: 1 }, model: "unpriced", durationMs: 200 },
      },
      { name: "x", kind: "tool_result", at: 520, payload: { toolName: "x", result: { error: "no" }, isError: true } },
    ]);
    const [turn, call] = waterfallOf(outline(run), {}).bars;
    expect(turn).toMatchObject({ startMs: 0, durationMs: 200, timed: false, costUsd: null });
    expect(call).toMatchObject({ startMs: 220, durationMs: 0, failed: true, timed: false, kind: "tool" });
  });

  it("keeps sub-agent runs on the call that started them", () => {
    const run = records([model("turn:0", 0, 5), result("research", 5, 50, { childRunIds: ["r/child"] })]);
    expect(waterfallOf(outline(run)).bars[1]?.childRunIds).toEqual(["r/child"]);
  });
});

describe("waterfallWindow", () => {
  const many = records(Array.from({ length: 1_000 }, (_, index) => (index % 2 === 0 ? model(`turn:${index}`, index * 10, 10) : result(`c${index}`, index * 10, 10))));
  const waterfall = waterfallOf(outline(many));

  it("sends a slice around the cursor, never the whole run", () => {
    const window = waterfallWindow(waterfall, { at: 500, limit: 100 });
    expect(window.total).toBe(1_000);
    expect(window.bars).toHaveLength(100);
    expect(window.atBar).toBe(500);
    expect(window.from).toBe(450);
    expect(window.bars[50]?.seq).toBe(500);
  });

  it("pages by index and clamps at both ends", () => {
    expect(waterfallWindow(waterfall, { from: 980, limit: 100 }).bars).toHaveLength(20);
    expect(waterfallWindow(waterfall, { at: 3, limit: 100 }).from).toBe(0);
    expect(waterfallWindow(waterfallOf([]), { at: 0, limit: 10 })).toMatchObject({ total: 0, bars: [], atBar: -1 });
  });

  it("finds the nearest bar at or before a step that draws none", () => {
    const run = records([{ name: "run:start", kind: "header", at: 0, payload: {} }, model("turn:0", 0, 5), { name: "a", kind: "attempt", at: 5, payload: {} }]);
    const small = waterfallOf(outline(run));
    expect(barIndexAt(small, 2)).toBe(0);
    expect(barIndexAt(small, 0)).toBe(0);
  });
});

describe("the outline's times", () => {
  it("stay on the server: the wire entry leaves them and the model out", () => {
    const [entry] = outline(records([model("turn:0", 0, 5)]));
    expect(entry).toMatchObject({ startMs: T0, endMs: T0 + 5, timed: true, model: "m" });
    const wire = wireEntry(entry!);
    expect(Object.keys(wire)).not.toEqual(expect.arrayContaining(["startMs"]));
    expect(wire).not.toHaveProperty("endMs");
    expect(wire).not.toHaveProperty("model");
    expect(wire).not.toHaveProperty("timed");
    expect(wire).toMatchObject({ seq: 0, kind: "model", inputTokens: 1_000_000 });
  });
});

describe("a waterfall from chunks (the server's path)", () => {
  // Parallel tool calls that straddle the chunks' edges, old untimed records and a priced model.
  const run = records(
    Array.from({ length: 90 }, (_, index) =>
      index % 3 === 0 ? model(`turn:${index}`, index * 10, 10, { model: index % 2 === 0 ? "m" : "other" }) : result(`c${index}`, index * 10 - 5, index % 5 === 0 ? 40 : 10),
    ),
  );

  it("lays out and names the same bars as waterfallOf, and prices the same turns", () => {
    const prices = { m: { input: 2, output: 1 } };
    const timeline = new ChunkedTimeline();
    for (let from = 0; from < run.length; from += 7) expect(timeline.append(outlineChunk(run.slice(from, from + 7), timeline.totals))).toBe(true);
    const view = timeline.view();
    const pooled = waterfallView(layoutWaterfall(view.barLists, view.entries.length), view.entries, prices);
    const whole = waterfallOf(outline(run), prices);
    expect(whole.lanes).toBeGreaterThan(1);
    expect(pooled.bars.slice(0, pooled.bars.length)).toEqual(whole.bars);
    expect({ ...pooled, bars: undefined }).toEqual({ ...whole, bars: undefined });
    const turns = outline(run).filter((entry) => entry.kind === "model");
    expect(runCost(turnsOf(view.turnLists), prices)).toEqual(runCost(turns, prices));
    expect(runCost(turnsOf(view.turnLists), prices).unpricedTurns).toBe(15);
  });
});
