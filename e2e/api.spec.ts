/** The HTTP API the inspector adds, against the built app (shapes documented in docs/http-api.md). */
import { expect, test } from "@playwright/test";

test("outline, state at a step and the decorated Mermaid chart of a run", async ({ request }) => {
  const outline = await request.get("/api/runs/order-123/outline?from=4");
  expect(outline.status()).toBe(200);
  const body = (await outline.json()) as { run: { lastSeq: number }; entries: Array<{ seq: number; title: string; node: { label: string } | null }> };
  expect(body.run.lastSeq).toBe(5);
  expect(body.entries.map((entry) => entry.seq)).toEqual([4, 5]);
  expect(body.entries[1]).toMatchObject({ title: "run:complete", node: { label: "step: run:complete" } });

  const state = await request.get("/api/runs/order-123/state?at=3");
  const { state: at3 } = (await state.json()) as { state: { at: number; toolCalls: number; toolResults: Array<{ toolName: string }>; conversation: Array<{ role: string }> } };
  expect(at3.at).toBe(3);
  expect(at3.toolCalls).toBe(1);
  expect(at3.toolResults.map((result) => result.toolName)).toEqual(["chargeCard"]);
  expect(at3.conversation.map((item) => item.role)).toEqual(["system", "user", "assistant", "tool"]);

  const plain = await (await request.get("/api/runs/order-123/mermaid")).text();
  expect(plain).toBe(
    [
      "flowchart TD",
      "  start([user])",
      '  n0["LLM"]',
      "  start --> n0",
      '  n1["tool: chargeCard"]',
      "  n0 --> n1",
      '  n2["LLM"]',
      "  n1 --> n2",
      '  n3["step: run:complete"]',
      "  n2 --> n3",
      "  n3 --> done([done])",
    ].join("\n"),
  );
  const decorated = await (await request.get("/api/runs/order-123/mermaid?at=3")).text();
  expect(decorated).toContain("classDef current");
  expect(decorated.trim().split("\n").slice(-2)).toEqual(["  class start,n0 past", "  class n1 current"]);
});

test("agents, and clear errors for unknown runs and bad input", async ({ request }) => {
  const agents = (await (await request.get("/api/agents")).json()) as { agents: string[] };
  expect(agents.agents).toEqual(expect.arrayContaining(["auditor", "billing", "planner", "reporter", "researcher"]));
  expect([...agents.agents].sort()).toEqual(agents.agents);
  for (const path of ["/api/runs/nope/outline", "/api/runs/nope/state", "/api/runs/nope/stream", "/api/runs/nope/mermaid?at=1"]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(404);
    expect(await response.json()).toEqual({ error: { code: "not_found", message: 'no run with id "nope"' } });
  }
  const bad = await request.get("/api/runs/order-123/state?at=-1");
  expect(bad.status()).toBe(400);
  expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("bad_input");
});
