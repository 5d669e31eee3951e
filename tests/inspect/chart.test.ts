/** The inspector's flowchart text: windowing, collapsed gaps, decorations, limits, escaping. */
import { describe, expect, it } from "vitest";
import type { FlowNode } from "@/lib/inspect/flow";
import {
  chartItems,
  chartNodeId,
  chartSource,
  chartTarget,
  ChartTooLargeError,
  decorate,
  decoratedSource,
  edgeEnds,
  flowWindow,
  MAX_CHART_NODES,
  windowHolds,
  WINDOW_DEFAULTS,
} from "@/lib/inspect/chart";

function nodes(count: number): FlowNode[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `n${index}`,
    seq: index * 3 + 1,
    recordName: `r${index}`,
    kind: index % 2 === 0 ? ("model" as const) : ("tool" as const),
    label: index % 2 === 0 ? "LLM" : "tool: checkAccount",
    failed: false,
    childRunIds: [],
  }));
}

describe("flowWindow", () => {
  it("draws a run up to the full limit whole", () => {
    expect(flowWindow(WINDOW_DEFAULTS.fullLimit, 17)).toEqual({ start: 0, end: WINDOW_DEFAULTS.fullLimit });
    expect(flowWindow(0, -1)).toEqual({ start: 0, end: 0 });
  });

  it("draws whole blocks around the cursor beyond it, and moves only across a block boundary", () => {
    const { block, blocks } = WINDOW_DEFAULTS;
    const size = block * blocks;
    const window = flowWindow(10_000, 5_000);
    expect(window.end - window.start).toBe(size);
    expect(windowHolds(window, 5_000)).toBe(true);
    expect(window.start % block).toBe(0);
    // Every cursor in the same block gives the same window.
    const blockStart = Math.floor(5_000 / block) * block;
    expect(flowWindow(10_000, blockStart)).toEqual(window);
    expect(flowWindow(10_000, blockStart + block - 1)).toEqual(window);
    expect(flowWindow(10_000, blockStart + block)).not.toEqual(window);
    // At the ends the window stays full size.
    expect(flowWindow(10_000, -1)).toEqual({ start: 0, end: size });
    expect(flowWindow(10_000, 9_999)).toEqual({ start: 10_000 - size, end: 10_000 });
    expect(windowHolds(flowWindow(10_000, 9_999), -1)).toBe(false);
  });
});

describe("chartItems and chartSource", () => {
  it("collapses the nodes outside the window into counted gaps", () => {
    const all = nodes(1_000);
    const window = { start: 400, end: 520 };
    const items = chartItems(all, window);
    expect(items[0]).toMatchObject({ type: "gap", id: "gap0t399", count: 400, fromSeq: 1, toSeq: all[399]!.seq });
    expect(items.at(-1)).toMatchObject({ type: "gap", id: "gap520t999", count: 480 });
    expect(items.filter((item) => item.type === "node")).toHaveLength(120);
    const text = chartSource(items, { end: "running" });
    expect(text).toContain('gap0t399{{"… 400 steps …"}}');
    expect(text).toContain("start --> gap0t399");
    expect(text).toContain("gap0t399 --> n400");
    expect(text).toContain("n519 --> gap520t999");
    expect(text).toContain("gap520t999 --> done([running…])");
    expect(text).not.toContain("n399[");
  });

  it("matches renderMermaid's mapping for a small complete run, with the seed's start and done", () => {
    const text = chartSource(chartItems(nodes(3), { start: 0, end: 3 }), { end: "complete" });
    expect(text.split("\n").filter((line) => !line.includes("classDef"))).toEqual([
      "flowchart TD",
      "  start([user])",
      '  n0["LLM"]',
      "  start --> n0",
      '  n1["tool: checkAccount"]',
      "  n0 --> n1",
      '  n2["LLM"]',
      "  n1 --> n2",
      "  n2 --> done([done])",
    ]);
  });

  it("escapes labels and sub-agent run ids, so data can never become Mermaid syntax or HTML", () => {
    const hostile: FlowNode = {
      id: "n0",
      seq: 3,
      recordName: "x",
      kind: "tool",
      label: 'tool: <img src=x onerror=alert(1)>"]) --> n9["pwn',
      failed: true,
      childRunIds: ['child"]) click n0 call alert()'],
    };
    const text = chartSource(chartItems([hostile], { start: 0, end: 1 }), { end: "failed" });
    expect(text).not.toMatch(/<img|"\]\)/);
    // Each quoted label holds no quote of its own: the data stays inside it.
    for (const line of text.split("\n").filter((candidate) => candidate.includes('"'))) {
      const inner = line.slice(line.indexOf('"') + 1, line.lastIndexOf('"'));
      expect(inner, line).not.toMatch(/["[\]()<>]/);
    }
    expect(text).toContain("class n0 failed");
    expect(text).toContain("n0 -.-> c0k0");
    expect(text).toContain("done([failed ✗])");
  });

  it("cuts long labels and summarises many sub-agent runs", () => {
    const node: FlowNode = { ...nodes(1)[0]!, label: `tool: ${"x".repeat(500)}`, childRunIds: Array.from({ length: 9 }, (_, k) => `child-${k}`) };
    const text = chartSource(chartItems([node], { start: 0, end: 1 }), { end: "complete" });
    expect(text).toContain(`tool: ${"x".repeat(53)}…`);
    expect(text).toContain("c0k3[[");
    expect(text).toContain('c0k4[["… 5 more sub-agent runs"]]');
    expect(text).not.toContain("child-4");
  });

  it("refuses to hand Mermaid more nodes than it can draw", () => {
    const all = nodes(MAX_CHART_NODES + 10);
    expect(() => chartSource(chartItems(all, { start: 0, end: all.length }), { end: "complete" })).toThrow(ChartTooLargeError);
    // The default window of the same run is fine.
    expect(() => chartSource(chartItems(all, flowWindow(all.length, 200)), { end: "complete" })).not.toThrow();
  });
});

describe("decorations and click targets", () => {
  const all = nodes(300);
  const items = chartItems(all, { start: 100, end: 200 });

  it("marks the cursor's node current and the path before it past", () => {
    expect(decorate(items, -1)).toEqual({ current: "start", past: [] });
    const at = decorate(items, 150);
    expect(at.current).toBe("n150");
    expect(at.past).toContain("start");
    expect(at.past).toContain("gap0t99");
    expect(at.past).toContain("n149");
    expect(at.past).not.toContain("n151");
    // A cursor hidden in a gap marks the gap.
    expect(decorate(items, 250).current).toBe("gap200t299");
    const text = decoratedSource(items, 150, { end: "running" });
    expect(text.endsWith("  class n150 current")).toBe(true);
    expect(text).toMatch(/class start,gap0t99,n100,.*,n149 past/);
  });

  it("maps Mermaid element ids back to chart nodes, steps and runs", () => {
    expect(edgeEnds("L_start_n0_0")).toEqual({ from: "start", to: "n0" });
    expect(edgeEnds("L_gap0t99_n100_0")).toEqual({ from: "gap0t99", to: "n100" });
    expect(edgeEnds("something-else")).toBeUndefined();
    expect(chartNodeId("chart-r1-flowchart-n12-34")).toBe("n12");
    expect(chartNodeId("chart-r1-flowchart-gap0t99-2")).toBe("gap0t99");
    expect(chartTarget("n12", all)).toEqual({ type: "step", seq: all[12]!.seq });
    expect(chartTarget("gap0t99", all)).toEqual({ type: "step", seq: all[99]!.seq });
    expect(chartTarget("gap200t299", all)).toEqual({ type: "step", seq: all[200]!.seq });
    expect(chartTarget("start", all)).toEqual({ type: "step", seq: 0 });
    expect(chartTarget("done", all)).toBeUndefined();
    const withChild = [{ ...all[0]!, childRunIds: ["trip-42.t0c0"] }];
    expect(chartTarget("c0k0", withChild)).toEqual({ type: "run", runId: "trip-42.t0c0" });
  });
});
