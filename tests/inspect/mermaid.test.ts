/** renderMermaid: the seed's mapping and example, escaping of hostile strings, unknown kinds. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "@/lib/agent/agent";
import { tool } from "@/lib/agent/tool";
import { billingAgent, reporterAgent } from "@/lib/demo/agents";
import { scriptedModel } from "@/lib/agent/scripted";
import { buildFlow } from "@/lib/inspect/flow";
import { escapeLabel, flowToMermaid, renderMermaid } from "@/lib/inspect/mermaid";
import { RunNotFoundError } from "@/lib/journal/errors";
import { MemStore } from "@/lib/journal/memory-store";
import type { JournalRecord } from "@/lib/journal/types";

const record = (seq: number, kind: string, name: string, payload: unknown): JournalRecord => ({ runId: "r", seq, kind, name, payload, createdAt: "" });

describe("renderMermaid", () => {
  it("draws the seed's example exactly: one model call, one tool, an answer", () => {
    const records = [
      record(0, "header", "run:start", { input: "x" }),
      record(1, "model", "turn:0", {}),
      record(2, "attempt", "turn:0:call:0:attempt", {}),
      record(3, "tool_result", "turn:0:call:0:result", { toolName: "charge", isError: false }),
      record(4, "model", "turn:1", {}),
    ];
    expect(flowToMermaid(buildFlow(records))).toBe(
      ["flowchart TD", "  start([user])", '  n0["LLM"]', "  start --> n0", '  n1["tool: charge"]', "  n0 --> n1", '  n2["LLM"]', "  n1 --> n2", "  n2 --> done([done])"].join("\n"),
    );
  });

  it("maps every kind: failed tools, approvals, steps, run:complete; skips attempts, headers and signals", () => {
    const records = [
      record(0, "header", "run:start", {}),
      record(1, "tool_result", "a", { toolName: "pay", isError: true }),
      record(2, "approval", "b", { approved: true }),
      record(3, "approval", "c", { approved: false }),
      record(4, "value", "turn:0:call:0:step:fetch", { step: "fetch", value: 1 }),
      record(5, "signal", "turn:0:memctx", {}),
      record(6, "value", "run:complete", { value: {} }),
      record(7, "telemetry", "odd", {}),
    ];
    expect(buildFlow(records).map((node) => [node.id, node.seq, node.label])).toEqual([
      ["n0", 1, "tool: pay ✗"],
      ["n1", 2, "approved ✓"],
      ["n2", 3, "denied ✗"],
      ["n3", 4, "step: fetch"],
      ["n4", 6, "step: run:complete"],
      ["n5", 7, "unknown: telemetry"],
    ]);
  });

  it("renders a journaled run from the store, and closes an empty flow", async () => {
    const store = new MemStore();
    await billingAgent(store).run("order-123", "Please charge order 123.");
    await reporterAgent(store).run("report-7", "Summarise the October ledger.");
    expect(await renderMermaid(store, "order-123")).toContain(
      'n1["tool: chargeCard"]\n  n0 --> n1\n  n2["LLM"]\n  n1 --> n2\n  n3["step: run:complete"]\n  n2 --> n3\n  n3 --> done([done])',
    );
    expect(await renderMermaid(store, "report-7")).toContain('n1["step: fetch-ledger"]');
    expect(flowToMermaid([])).toBe("flowchart TD\n  start([user])\n  start --> done([done])");
    await expect(renderMermaid(store, "missing")).rejects.toBeInstanceOf(RunNotFoundError);
  });

  it("escapes hostile tool names and outputs: no quote, bracket, arrow or tag survives into the syntax", async () => {
    const hostile = `x"]) --> evil[<img src=x onerror=alert(1)>]; click n0 call alert() %% \`md\`\n  n9["pwn"]`;
    expect(escapeLabel(hostile)).not.toMatch(/["<>\[\]`()\n]/);
    const store = new MemStore();
    await new Agent({
      name: "hostile",
      store,
      model: scriptedModel("hostile", (request, turn) =>
        turn === 0
          ? {
              toolCalls: [
                { name: hostile, args: {} },
                { name: "echo", args: {} },
              ],
            }
          : { text: "ok" },
      ),
      tools: [tool({ name: "echo", description: "echo", input: z.object({}), execute: () => hostile })],
    }).run("hostile-1", "go");
    const text = await renderMermaid(store, "hostile-1");
    const lines = text.split("\n");
    // Every node line is one well-formed label; nothing else was injected.
    expect(lines.filter((line) => line.includes("-->")).length).toBe(lines.filter((line) => /^\s+n\d+\["/.test(line)).length + 1);
    expect(lines.some((line) => /^\s*click\b/.test(line) || line.includes("<img"))).toBe(false);
    expect(text).toContain(
      "tool: x#34;#93;#41; --#62; evil#91;#60;img src=x onerror=alert#40;1#41;#62;#93;#59; click n0 call alert#40;#41; #37;#37; #96;md#96;   n9#91;#34;pwn#34;#93; ✗",
    );
  });
});
