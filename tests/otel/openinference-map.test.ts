/**
 * OpenInference mapping rules on hand-built spans (the real instrumentations are in
 * openinference.test.ts): a top CHAIN is the run and nested chains are dropped, a nested AGENT is
 * a sub-agent run, a TOOL without a call id takes the model's, a RETRIEVER is a signal, EMBEDDING
 * is dropped; indexed attributes with holes, bad indexes or other shapes give nothing, not guesses.
 */
import { describe, expect, it } from "vitest";
import { MemStore } from "@/lib/journal/memory-store";
import { ingestOtlp } from "@/lib/otel/ingest";
import { roleOf } from "@/lib/otel/map";
import { indexed, openInferenceMessages, openInferenceText } from "@/lib/otel/openinference";
import type { OtelSpan } from "@/lib/otel/spans";
import { payload, type Span } from "./genai";

const KIND = "openinference.span.kind";

/** A LangGraph-like trace: graph (CHAIN) → agent node (CHAIN) → LLM; tools node (CHAIN) → TOOL; a researcher AGENT with its LLM. */
function graphTrace(): Span[] {
  return [
    {
      spanId: "b000000000000001",
      name: "LangGraph",
      start: 0,
      end: 100,
      attributes: {
        [KIND]: "CHAIN",
        "input.value": JSON.stringify({ messages: [{ role: "user", content: "Refund order 9" }] }),
        "input.mime_type": "application/json",
        "output.value": JSON.stringify({ output: "Refunded." }),
        "output.mime_type": "application/json",
        "session.id": "s-1",
        metadata: JSON.stringify({ tenant: "acme" }),
      },
    },
    { spanId: "b000000000000002", parentSpanId: "b000000000000001", name: "agent", start: 1, end: 20, attributes: { [KIND]: "CHAIN" } },
    {
      spanId: "b000000000000003",
      parentSpanId: "b000000000000002",
      name: "ChatOpenAI",
      start: 2,
      end: 19,
      attributes: {
        [KIND]: "LLM",
        "llm.model_name": "gpt-4o",
        "llm.input_messages.0.message.role": "system",
        "llm.input_messages.0.message.contents.0.message_content.type": "text",
        "llm.input_messages.0.message.contents.0.message_content.text": "You refund.",
        "llm.input_messages.1.message.role": "user",
        "llm.input_messages.1.message.content": "Refund order 9",
        "llm.output_messages.0.message.role": "assistant",
        "llm.output_messages.0.message.tool_calls.0.tool_call.id": "call_r",
        "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "refund",
        "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments": '{"order":9}',
        "llm.tools.0.tool.json_schema": JSON.stringify({ type: "function", function: { name: "refund" } }),
        "llm.token_count.prompt": 11,
        "llm.token_count.completion": 3,
        "llm.invocation_parameters": JSON.stringify({ model: "gpt-4o", temperature: 0, max_tokens: 50 }),
      },
    },
    { spanId: "b000000000000004", parentSpanId: "b000000000000001", name: "tools", start: 21, end: 40, attributes: { [KIND]: "CHAIN" } },
    {
      spanId: "b000000000000005",
      parentSpanId: "b000000000000004",
      name: "refund",
      start: 22,
      end: 30,
      attributes: {
        [KIND]: "TOOL",
        "tool.name": "refund",
        "input.value": '{"order":9}',
        "output.value": "refunded 9",
        "output.mime_type": "text/plain",
        "tool.parameters": '{"order":"int"}',
      },
    },
    { spanId: "b000000000000006", parentSpanId: "b000000000000001", name: "embed", start: 41, end: 42, attributes: { [KIND]: "EMBEDDING", "embedding.model_name": "e" } },
    {
      spanId: "b000000000000007",
      parentSpanId: "b000000000000001",
      name: "researcher",
      start: 43,
      end: 60,
      attributes: { [KIND]: "AGENT", "input.value": "Why order 9?", "input.mime_type": "text/plain", "output.value": "Damaged.", "output.mime_type": "text/plain" },
    },
    {
      spanId: "b000000000000008",
      parentSpanId: "b000000000000007",
      name: "ChatOpenAI",
      start: 44,
      end: 59,
      attributes: { [KIND]: "LLM", "llm.model_name": "gpt-4o-mini", "llm.output_messages.0.message.role": "assistant", "llm.output_messages.0.message.content": "Damaged." },
    },
  ];
}

const send = (store: MemStore, spans: Span[], traceId?: string) => ingestOtlp(store, { body: Buffer.from(payload(spans, traceId)), contentType: "application/json" });

describe("OpenInference mapping", () => {
  it("makes the top CHAIN the run, drops nested chains and embeddings, and makes a nested AGENT a sub-agent run", async () => {
    const store = new MemStore();
    const traceId = "1af7651916cd43dd8448eb211c80319c";
    const result = await send(store, graphTrace(), traceId);
    expect(result).toMatchObject({ accepted: 5, rejected: 0, dropped: 3 });
    const run = await store.run(traceId);
    expect(run).toMatchObject({ origin: "otel", status: "complete", agent: "LangGraph", modelTurns: 1, toolCalls: 1, inputTokens: 11, outputTokens: 3 });
    const records = await store.history(traceId);
    expect(records.map((record) => record.name)).toEqual(["run:start", "turn:0", "turn:0:call:0:attempt", "turn:0:call:0:result", "run:complete"]);
    const [header, model, attempt, toolResult, complete] = records.map((record) => record.payload);
    expect(header).toMatchObject({ input: "Refund order 9", model: "gpt-4o", tools: ["refund"], otel: { sessionId: "s-1", metadata: { tenant: "acme" } } });
    expect(model).toMatchObject({
      system: "You refund.",
      settings: { temperature: 0, max_tokens: 50 },
      message: { content: [{ type: "tool-call", toolCallId: "call_r", toolName: "refund", args: { order: 9 } }] },
    });
    expect((model as { settings: object }).settings).not.toHaveProperty("model");
    // No call id on the TOOL span: it takes the model's, so the result answers that call.
    expect(attempt).toMatchObject({ toolCallId: "call_r", toolName: "refund", args: { order: 9 }, parameters: { order: "int" } });
    expect(toolResult).toMatchObject({ toolCallId: "call_r", result: "refunded 9", isError: false });
    expect(complete).toMatchObject({ value: { text: "Refunded." } });
    const sub = await store.run(`${traceId}.b000000000000007`);
    expect(sub).toMatchObject({ parentRunId: traceId, agent: "researcher", status: "complete", modelTurns: 1 });
    expect((await store.record(`${traceId}.b000000000000007`, "run:start"))?.payload).toMatchObject({ input: "Why order 9?" });
  });

  it("holds spans under chains that have not arrived until the run's top span does", async () => {
    const store = new MemStore();
    const traceId = "2af7651916cd43dd8448eb211c80319c";
    const spans = graphTrace();
    const early = spans.filter((span) => span.name === "ChatOpenAI" || span.name === "refund");
    await send(store, early, traceId);
    expect(await store.run(traceId)).toBeUndefined();
    await send(
      store,
      spans.filter((span) => !early.includes(span)),
      traceId,
    );
    expect((await store.history(traceId)).map((record) => record.name)).toEqual(["run:start", "turn:0", "turn:0:call:0:attempt", "turn:0:call:0:result", "run:complete"]);
  });

  it("gives roles by span kind, a CHAIN only at the top", () => {
    const span = (kind: string, parentSpanId: string | null = null): OtelSpan => ({
      ...{ traceId: "t", spanId: "s", parentSpanId, name: "n", kind: 1, startNs: "1", endNs: "2" },
      ...{ attributes: { [KIND]: kind }, events: [], status: { code: 0, message: "" }, service: null },
    });
    expect(
      [span("AGENT", "p"), span("CHAIN"), span("CHAIN", "p"), span("LLM"), span("TOOL"), span("RETRIEVER"), span("EMBEDDING"), span("RERANKER"), span("llm")].map((each) =>
        roleOf(each),
      ),
    ).toEqual(["run", "run", "other", "model", "tool", "retrieval", "other", "other", "model"]);
  });

  it("reads indexed attributes in index order and ignores bad indexes and other shapes", () => {
    const attributes = {
      "llm.input_messages.2.message.role": "user",
      "llm.input_messages.2.message.content": "second",
      "llm.input_messages.0.message.role": "user",
      "llm.input_messages.0.message.content": "first",
      "llm.input_messages.x.message.role": "user",
      "llm.input_messages.-1.message.role": "user",
      "llm.input_messages.0": "not an entry",
    };
    expect(indexed(attributes, "llm.input_messages").map((entry) => entry["message.content"])).toEqual(["first", "second"]);
    expect(openInferenceMessages({}, "llm.input_messages")).toBeUndefined();
    expect(openInferenceMessages({ "llm.output_messages.0.message.role": "assistant", "llm.output_messages.0.message.content": 7 }, "llm.output_messages")).toEqual([
      { role: "assistant", content: [] },
    ]);
    expect(openInferenceText({ "input.value": "{not json", "input.mime_type": "application/json" }, "input")).toBe("{not json");
    expect(openInferenceText({ "input.value": JSON.stringify({ n: 1 }) }, "input")).toBeUndefined();
  });

  it("journals a RETRIEVER as a signal with its documents, and an LLM span without content as an empty turn", async () => {
    const store = new MemStore();
    const traceId = "3af7651916cd43dd8448eb211c80319c";
    await send(
      store,
      [
        { spanId: "c000000000000001", name: "rag", start: 0, end: 10, attributes: { [KIND]: "AGENT", "agent.name": "rag-agent" } },
        {
          spanId: "c000000000000002",
          parentSpanId: "c000000000000001",
          name: "search",
          start: 1,
          end: 2,
          attributes: {
            [KIND]: "RETRIEVER",
            "input.value": "desk price",
            "retrieval.documents.0.document.id": 4,
            "retrieval.documents.0.document.content": "Desk: $500",
            "retrieval.documents.0.document.score": 0.5,
            "retrieval.documents.1.document.content": "Chair: $90",
          },
        },
        { spanId: "c000000000000003", parentSpanId: "c000000000000001", name: "llm", start: 3, end: 4, attributes: { [KIND]: "LLM" } },
      ],
      traceId,
    );
    const records = await store.history(traceId);
    expect(records.map((record) => `${record.name} ${record.kind}`)).toEqual(["run:start header", "otel:c000000000000002:retrieval signal", "turn:0 model", "run:complete value"]);
    expect(records[1]?.payload).toEqual({
      type: "retrieval",
      query: "desk price",
      documents: [{ id: "4", content: "Desk: $500", score: 0.5 }, { content: "Chair: $90" }],
      spanId: "c000000000000002",
    });
    expect(records[2]?.payload).toMatchObject({ model: "unknown", usage: { inputTokens: 0, outputTokens: 0 }, message: { role: "assistant", content: [] } });
    expect(await store.run(traceId)).toMatchObject({ agent: "rag-agent" });
  });
});
