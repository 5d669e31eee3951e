/**
 * A real OpenInference-instrumented app for the OTLP tests: the `openai` client, instrumented by
 * `@arizeai/openinference-instrumentation-openai`, talks to a fake OpenAI-compatible server on
 * 127.0.0.1 (one tool call, then an answer); the agent loop, its tool and a retrieval step are
 * traced with `@arizeai/openinference-core`'s own helpers (traceAgent, traceTool, withSpan), as
 * Arize's docs show an app doing; the stock OTLP exporter sends the spans to `url`. And a
 * LangChain.js agent (`@langchain/openai`'s ChatOpenAI with a bound tool, in a named runnable)
 * under `@arizeai/openinference-instrumentation-langchain`, against the same fake server.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getRetrieverAttributes, traceAgent, traceTool, withSpan } from "@arizeai/openinference-core";
import { OpenAIInstrumentation } from "@arizeai/openinference-instrumentation-openai";
import { LangChainInstrumentation } from "@arizeai/openinference-instrumentation-langchain";
import { OpenInferenceSpanKind } from "@arizeai/openinference-semantic-conventions";
import * as CallbackManagerModule from "@langchain/core/callbacks/manager";
import { HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import { RunnableLambda } from "@langchain/core/runnables";
import { tool } from "@langchain/core/tools";
import { ChatOpenAI } from "@langchain/openai";
import { z } from "zod";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import OpenAI from "openai";

export interface FakeOpenAI {
  baseURL: string;
  /** The chat requests it received, parsed. */
  requests: Array<{ messages: Array<{ role: string }> }>;
  close(): Promise<void>;
}

const USAGE = { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 };

/** An OpenAI-compatible chat endpoint: the first call of a conversation asks for chargeCard, the next answers. */
export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const requests: FakeOpenAI["requests"] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const parsed = JSON.parse(body) as FakeOpenAI["requests"][number];
      requests.push(parsed);
      const answered = parsed.messages.some((message) => message.role === "tool");
      const message = answered
        ? { role: "assistant", content: "Charged $500 to order-123." }
        : { role: "assistant", content: null, tool_calls: [{ id: "call_charge", type: "function", function: { name: "chargeCard", arguments: JSON.stringify({ amount: 500 }) } }] };
      const answer = {
        id: `chat-${requests.length}`,
        object: "chat.completion",
        created: 1,
        model: "gpt-4o-mini",
        choices: [{ index: 0, message, finish_reason: answered ? "stop" : "tool_calls" }],
        usage: USAGE,
      };
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { baseURL: `http://127.0.0.1:${port}/v1`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const TOOLS = [
  {
    type: "function" as const,
    function: { name: "chargeCard", description: "Charge the customer's card.", parameters: { type: "object", properties: { amount: { type: "number" } } } },
  },
];

/** Runs the instrumented agent once: retrieve the order, ask the model, run its tool call, ask again. */
export async function tracedOpenAIAgent(options: { url: string; exporter: "proto" | "json"; openai: FakeOpenAI; question: string; sessionId?: string }): Promise<string> {
  const provider = providerFor(options.url, options.exporter);
  const instrumentation = new OpenAIInstrumentation();
  instrumentation.setTracerProvider(provider);
  // ES modules are not patched on import: the instrumentation's documented manual path.
  instrumentation.manuallyInstrument(OpenAI);
  const client = new OpenAI({ apiKey: "sk-test-not-a-real-key", baseURL: options.openai.baseURL });
  const tracer = provider.getTracer("billing-app");
  const chargeCard = traceTool(async (args: { amount: number }) => ({ charged: args.amount, receipt: "r-1" }), { name: "chargeCard", tracer });
  const retrieve = withSpan(async (_query: string) => [{ id: "order-123", content: "Order 123: one desk, $500.", score: 0.92 }], {
    name: "retrieve-order",
    kind: OpenInferenceSpanKind.RETRIEVER,
    tracer,
    processOutput: (documents) => getRetrieverAttributes({ documents }),
  });
  const agent = traceAgent(
    async (question: string) => {
      const documents = await retrieve(question);
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
        { role: "system", content: `Bill the customer. Context: ${documents.map((document) => document.content).join(" ")}` },
        { role: "user", content: question },
      ];
      for (let turn = 0; turn < 4; turn += 1) {
        const completion = await client.chat.completions.create({ model: "gpt-4o-mini", messages, tools: TOOLS, temperature: 0.2 });
        const message = completion.choices[0]!.message;
        messages.push(message);
        const calls = message.tool_calls ?? [];
        if (calls.length === 0) return message.content ?? "";
        for (const call of calls) {
          if (call.type !== "function") continue;
          const result = await chargeCard(JSON.parse(call.function.arguments) as { amount: number });
          messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify(result) });
        }
      }
      return "gave up";
    },
    { name: "billing-agent", tracer, ...(options.sessionId ? { attributes: { "session.id": options.sessionId, "user.id": "ada" } } : {}) },
  );
  try {
    return await agent(options.question);
  } finally {
    instrumentation.disable();
    await provider.forceFlush();
    await provider.shutdown();
  }
}

/** The tracer provider both apps export with: the stock exporter of either encoding, batched. */
function providerFor(url: string, exporter: "proto" | "json"): NodeTracerProvider {
  const spanExporter = exporter === "proto" ? new ProtoExporter({ url }) : new JsonExporter({ url });
  const provider = new NodeTracerProvider({ resource: resourceFromAttributes({ "service.name": "billing-app" }), spanProcessors: [new BatchSpanProcessor(spanExporter)] });
  provider.register();
  return provider;
}

/** A LangChain.js agent loop in a runnable named `billing-agent` (the top CHAIN span), instrumented by OpenInference. */
export async function tracedLangChainAgent(options: { url: string; exporter: "proto" | "json"; openai: FakeOpenAI; question: string }): Promise<string> {
  const provider = providerFor(options.url, options.exporter);
  const instrumentation = new LangChainInstrumentation();
  instrumentation.setTracerProvider(provider);
  instrumentation.manuallyInstrument(CallbackManagerModule);
  const chargeCard = tool(async ({ amount }: { amount: number }) => JSON.stringify({ charged: amount, receipt: "r-1" }), {
    name: "chargeCard",
    description: "Charge the customer's card.",
    schema: z.object({ amount: z.number() }),
  });
  const model = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "sk-test-not-a-real-key", configuration: { baseURL: options.openai.baseURL }, temperature: 0.2 }).bindTools([
    chargeCard,
  ]);
  const agent = RunnableLambda.from(async (question: string, config) => {
    const messages: BaseMessage[] = [new SystemMessage("Bill the customer."), new HumanMessage(question)];
    for (let turn = 0; turn < 4; turn += 1) {
      // The config carries the callbacks: the model and tool spans nest under the agent's.
      const reply = await model.invoke(messages, config);
      messages.push(reply);
      if (!reply.tool_calls?.length) return typeof reply.content === "string" ? reply.content : JSON.stringify(reply.content);
      for (const call of reply.tool_calls) messages.push((await chargeCard.invoke(call, config)) as BaseMessage);
    }
    return "gave up";
  }).withConfig({ runName: "billing-agent" });
  try {
    return await agent.invoke(options.question);
  } finally {
    instrumentation.disable();
    await provider.forceFlush();
    await provider.shutdown();
  }
}
