/**
 * Issue 43 part 1: an app instrumented with OpenInference (the real `openai` client under
 * `@arizeai/openinference-instrumentation-openai`, its agent and tool traced with
 * `@arizeai/openinference-core`), exported by the stock OTLP exporters, becomes a run on every
 * store: the agent span is the run, LLM spans its model turns with messages and usage, the TOOL
 * span an attempt and a result, the RETRIEVER span a signal with its documents. And a LangChain.js
 * agent under `@arizeai/openinference-instrumentation-langchain`: its top CHAIN is the run.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderMermaid } from "@/lib/inspect/mermaid";
import type { Journal } from "@/lib/journal/ports";
import { ingestOtlp } from "@/lib/otel/ingest";
import { encodeResponse } from "@/lib/otel/response";
import { diffRuns } from "@/lib/regression/diff-runs";
import { STORE_KINDS } from "../helpers/databases";
import { startCollector, type Collector, type Exported } from "./clients";
import { startFakeOpenAI, tracedLangChainAgent, tracedOpenAIAgent, type FakeOpenAI } from "./openinference-clients";

describe.each(STORE_KINDS)("OTLP ingest of OpenInference spans: $name", (kind) => {
  let store: Journal & { close(): Promise<void> };
  let collector: Collector;
  let openai: FakeOpenAI;
  const runIds: string[] = [];

  beforeAll(async () => {
    store = await kind.open();
    openai = await startFakeOpenAI();
    collector = await startCollector(async (request: Exported) => {
      const result = await ingestOtlp(store, request);
      runIds.push(...result.runIds);
      return encodeResponse(result, request.contentType);
    });
  });
  afterAll(async () => {
    await collector.close();
    await openai.close();
    await store.close();
  });

  it.each(["proto", "json"] as const)("journals an OpenAI-client agent sent by the %s exporter", async (exporter) => {
    const before = runIds.length;
    const text = await tracedOpenAIAgent({ url: collector.url, exporter, openai, question: "Charge order-123 for the desk.", sessionId: "session-7" });
    expect(text).toBe("Charged $500 to order-123.");
    const [runId] = [...new Set(runIds.slice(before))];
    const run = await store.run(runId!);
    expect(run).toMatchObject({ origin: "otel", status: "complete", agent: "billing-agent", modelTurns: 2, toolCalls: 1, inputTokens: 40, outputTokens: 10 });
    const records = await store.history(runId!);
    expect(records.map((record) => `${record.name} ${record.kind}`)).toEqual([
      "run:start header",
      expect.stringMatching(/^otel:[0-9a-f]{16}:retrieval signal$/),
      "turn:0 model",
      "turn:0:call:0:attempt attempt",
      "turn:0:call:0:result tool_result",
      "turn:1 model",
      "run:complete value",
    ]);
    const [header, retrieval, first, , result, second, complete] = records.map((record) => record.payload);
    expect(header).toMatchObject({
      input: "Charge order-123 for the desk.",
      agent: "billing-agent",
      model: "gpt-4o-mini",
      tools: ["chargeCard"],
      otel: { sessionId: "session-7", userId: "ada" },
    });
    expect(retrieval).toMatchObject({
      type: "retrieval",
      query: "Charge order-123 for the desk.",
      documents: [{ id: "order-123", content: "Order 123: one desk, $500.", score: 0.92 }],
    });
    expect(first).toMatchObject({
      model: "gpt-4o-mini",
      usage: { inputTokens: 20, outputTokens: 5 },
      settings: { temperature: 0.2 },
      system: expect.stringContaining("Bill the customer."),
      input: [{ role: "user", content: "Charge order-123 for the desk." }],
      message: { content: [{ type: "tool-call", toolCallId: "call_charge", toolName: "chargeCard", args: { amount: 500 } }] },
    });
    expect(result).toMatchObject({ toolName: "chargeCard", args: { amount: 500 }, result: { charged: 500, receipt: "r-1" }, isError: false });
    // The second turn read the tool's result: the whole conversation, the tool message included.
    expect(second).toMatchObject({
      message: { content: [{ type: "text", text: "Charged $500 to order-123." }] },
      input: [
        { role: "user" },
        { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_charge" }] },
        { role: "tool", content: [{ toolCallId: "call_charge", result: { charged: 500, receipt: "r-1" } }] },
      ],
    });
    expect(complete).toMatchObject({ value: { text: "Charged $500 to order-123." } });
    expect(await renderMermaid(store, runId!)).toContain("tool: chargeCard");
  });

  it("journals the same agent alike from protobuf and JSON: no divergence", async () => {
    const [proto, json] = [...new Set(runIds)].slice(0, 2);
    const diff = await diffRuns(store, proto!, json!);
    expect(diff.divergentAt).toBeNull();
  });

  it("journals a LangChain.js agent: the top chain is the run, its model calls and tool call are steps", async () => {
    const before = runIds.length;
    const text = await tracedLangChainAgent({ url: collector.url, exporter: "proto", openai, question: "Charge order-123 for the desk." });
    expect(text).toBe("Charged $500 to order-123.");
    const [runId] = [...new Set(runIds.slice(before))];
    expect(await store.run(runId!)).toMatchObject({ origin: "otel", status: "complete", agent: "billing-agent", modelTurns: 2, toolCalls: 1, inputTokens: 40, outputTokens: 10 });
    const records = await store.history(runId!);
    expect(records.map((record) => record.name)).toEqual(["run:start", "turn:0", "turn:0:call:0:attempt", "turn:0:call:0:result", "turn:1", "run:complete"]);
    const [header, first, attempt, result, second, complete] = records.map((record) => record.payload);
    expect(header).toMatchObject({ input: "Charge order-123 for the desk.", model: "gpt-4o-mini", tools: ["chargeCard"] });
    expect(first).toMatchObject({
      system: "Bill the customer.",
      settings: { temperature: 0.2 },
      message: { content: [{ type: "tool-call", toolName: "chargeCard", args: { amount: 500 } }] },
    });
    expect(attempt).toMatchObject({ toolName: "chargeCard", args: { amount: 500 } });
    // LangChain's serialised ToolMessage is unwrapped to the tool's own result.
    expect(result).toMatchObject({ toolName: "chargeCard", result: { charged: 500, receipt: "r-1" }, isError: false });
    expect(second).toMatchObject({ message: { content: [{ type: "text", text: "Charged $500 to order-123." }] } });
    expect(complete).toMatchObject({ value: { text: "Charged $500 to order-123." } });
  });
});
