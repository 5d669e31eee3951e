/**
 * Real OpenTelemetry clients for the OTLP tests: a NodeTracerProvider with the stock OTLP proto or
 * JSON exporter, and the AI SDK's own telemetry of a generateText tool loop over
 * MockLanguageModelV3. A loopback collector hands each request the exporter sent (its bytes and
 * headers, untouched) to the test.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";

export interface Exported {
  contentType: string | null;
  contentEncoding: string | null;
  authorization: string | null;
  body: Uint8Array;
}

export interface Collector {
  url: string;
  requests: Exported[];
  close(): Promise<void>;
}

function header(request: IncomingMessage, name: string): string | null {
  const value = request.headers[name];
  return typeof value === "string" ? value : null;
}

/** A collector answering each export with `answer` (status and body). */
export async function startCollector(answer: (request: Exported) => Promise<{ status: number; body: Uint8Array; contentType: string }>): Promise<Collector> {
  const requests: Exported[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const exported: Exported = {
        contentType: header(request, "content-type"),
        contentEncoding: header(request, "content-encoding"),
        authorization: header(request, "authorization"),
        body: new Uint8Array(Buffer.concat(chunks)),
      };
      requests.push(exported);
      answer(exported).then(
        (reply) => response.writeHead(reply.status, { "content-type": reply.contentType }).end(Buffer.from(reply.body)),
        (error: unknown) => response.writeHead(500).end(String(error)),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1/traces`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const USAGE = { inputTokens: { total: 12, noCache: 12, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 4, text: 4, reasoning: 0 } };

/** A model that asks for the weather tool once, then answers. */
export function weatherModel(answer = "Sunny in Paris") {
  let calls = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      calls += 1;
      if (calls === 1) {
        return {
          content: [{ type: "tool-call" as const, toolCallId: "call-1", toolName: "weather", input: JSON.stringify({ city: "Paris" }) }],
          finishReason: { unified: "tool-calls" as const, raw: undefined },
          usage: USAGE,
          warnings: [],
        };
      }
      return { content: [{ type: "text" as const, text: answer }], finishReason: { unified: "stop" as const, raw: undefined }, usage: USAGE, warnings: [] };
    },
  });
}

export interface TracedRun {
  text: string;
}

/** Runs an AI SDK generateText tool loop with telemetry on, exported by the stock exporter to `url`. */
export async function tracedGenerateText(options: {
  url: string;
  exporter: "proto" | "json";
  runId?: string;
  headers?: Record<string, string>;
  service?: string;
}): Promise<TracedRun> {
  const exporter =
    options.exporter === "proto" ? new ProtoExporter({ url: options.url, headers: options.headers }) : new JsonExporter({ url: options.url, headers: options.headers });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": options.service ?? "weather-service" }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  // As an app does: the context manager lets the AI SDK's spans nest under their generateText span.
  provider.register();
  const tracer = provider.getTracer("tests");
  const result = await generateText({
    model: weatherModel(),
    system: "Answer briefly.",
    prompt: "What is the weather in Paris?",
    tools: { weather: tool({ description: "the weather", inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => ({ city, sky: "sunny" }) }) },
    stopWhen: stepCountIs(4),
    experimental_telemetry: { isEnabled: true, tracer, functionId: "weather-agent", metadata: options.runId ? { runId: options.runId } : {} },
  });
  await provider.forceFlush();
  await provider.shutdown();
  return { text: result.text };
}
