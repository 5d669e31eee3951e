/** The aggregated chart: one node per distinct step, counted edges, loops as cycles, bounded size, inert names. */
import { describe, expect, it } from "vitest";
import { auditorAgent, plannerAgent } from "@/lib/demo/agents";
import { aggregateLabel, aggregateNodeId, aggregateOutline, aggregateSource, aggregateStep, MAX_AGGREGATE_EDGES, MAX_AGGREGATE_NODES } from "@/lib/inspect/aggregate";
import { renderMermaid } from "@/lib/inspect/mermaid";
import { outline } from "@/lib/inspect/outline";
import { MemStore } from "@/lib/journal/memory-store";
import type { JournalRecord } from "@/lib/journal/types";

const record = (seq: number, kind: string, name: string, payload: unknown): JournalRecord => ({ runId: "r", seq, kind, name, payload, createdAt: "" });

describe("aggregated chart", () => {
  it("draws long-audit as a handful of nodes with its loop as a cycle", async () => {
    const store = new MemStore();
    await auditorAgent(store).run("long-audit", "Audit 600 accounts for anomalies.");
    const text = await renderMermaid(store, "long-audit", { aggregate: true });
    expect(text).toBe(
      [
        "flowchart TD",
        "  start([user])",
        '  a0["LLM ×301"]',
        '  a1["tool: checkAccount ×600"]',
        '  a2["step: run:complete ×1"]',
        "  done([done])",
        "  start -->|×1| a0",
        "  a0 -->|×300| a1",
        "  a1 -->|×300| a1",
        "  a1 -->|×300| a0",
        "  a0 -->|×1| a2",
        "  a2 -->|×1| done",
      ].join("\n"),
    );
  });

  it("counts failures, denials, durable steps, sub-agents by agent; skips headers and attempts", () => {
    const records = [
      record(0, "header", "run:start", {}),
      record(1, "model", "turn:0", {}),
      record(2, "attempt", "x", {}),
      record(3, "tool_result", "a", { toolName: "checkAccount", isError: true }),
      record(4, "tool_result", "b", { toolName: "checkAccount", isError: false }),
      record(5, "approval", "c", { approved: false }),
      record(6, "signal", "d", { type: "subagent", childRunId: "r.c0", agent: "researcher" }),
      record(7, "value", "e", { step: "fetch", value: 1 }),
      record(8, "model", "turn:1", {}),
    ];
    const graph = aggregateOutline(outline(records));
    expect(graph.nodes.map((node) => [node.id, aggregateLabel(node)])).toEqual([
      ["a0", "LLM ×2"],
      ["a1", "tool: checkAccount ×2 #40;1 failed#41;"],
      ["a2", "approval ×1 #40;1 denied#41;"],
      ["a3", "sub-agent: researcher ×1"],
      ["a4", "step: fetch ×1"],
    ]);
    expect(graph.edges).toContainEqual({ from: "a1", to: "a1", count: 1 });
    expect(graph.edges).toContainEqual({ from: "a4", to: "a0", count: 1 });
    expect(aggregateStep(outline(records)[2]!)).toBeUndefined();
    expect(aggregateNodeId(graph, "step: fetch")).toBe("a4");
  });

  it("draws the planner's sub-agents as a node of their agent", async () => {
    const store = new MemStore();
    await plannerAgent(store).run("trip-42", "Plan my trip from Lisbon to Berlin on Friday.");
    const text = await renderMermaid(store, "trip-42", { aggregate: true });
    expect(text).toMatch(/\["sub-agent: [a-z]+ ×\d+"\]/);
  });

  it("keeps hostile names inert", () => {
    const hostile = 'x"]; click a0 call alert(1); a9["<img src=x onerror=alert(1)>';
    const graph = aggregateOutline(outline([record(0, "tool_result", "a", { toolName: hostile, isError: false })]));
    const text = aggregateSource(graph, { classes: true });
    const label = text.split("\n").find((line) => line.includes("a0["))!;
    const inner = label.slice('  a0["'.length, -'"]'.length);
    expect(inner).not.toMatch(/[<>"[\]()]/);
    expect(label).toBe('  a0["tool: x#34;#93;#59; click a0 call alert#40;1#41;#59; a9#91;#34;#60;img src=x onerror=alert#40;1#41;#62; ×1"]');
  });

  it("folds rare steps into one node and keeps the heaviest edges when a run has too many distinct steps", () => {
    const records = Array.from({ length: 400 }, (_, seq) => record(seq, "value", `s${seq}`, { step: `step-${seq % 200}`, value: seq }));
    const graph = aggregateOutline(outline(records));
    expect(graph.nodes).toHaveLength(MAX_AGGREGATE_NODES);
    expect(graph.nodes.at(-1)).toMatchObject({ id: "other", label: "… 141 other steps", count: 282 });
    expect(graph.folded).toBe(141);
    expect(graph.edges.length).toBeLessThanOrEqual(MAX_AGGREGATE_EDGES);
    expect(aggregateNodeId(graph, "step: step-199")).toBe("other");
  });
});
