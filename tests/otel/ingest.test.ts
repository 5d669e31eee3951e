/**
 * Issue 14 part 2: traces from the stock OTel exporters (protobuf and JSON), carrying the AI SDK's
 * own telemetry of a generateText tool loop, become journal runs on every store: the run, its
 * model turns, its tool call, its outcome, idempotent on span id.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffRuns } from "@/lib/regression/diff-runs";
import { renderMermaid } from "@/lib/inspect/mermaid";
import type { Journal } from "@/lib/journal/ports";
import { ingestOtlp } from "@/lib/otel/ingest";
import { encodeResponse } from "@/lib/otel/response";
import { STORE_KINDS } from "../helpers/databases";
import { startCollector, tracedGenerateText, type Collector, type Exported } from "./clients";

describe.each(STORE_KINDS)("OTLP ingest of AI SDK telemetry: $name", (kind) => {
  let store: Journal & { close(): Promise<void> };
  let collector: Collector;

  beforeAll(async () => {
    store = await kind.open();
    collector = await startCollector(async (request: Exported) => {
      const result = await ingestOtlp(store, request);
      return encodeResponse(result, request.contentType);
    });
  });
  afterAll(async () => {
    await collector.close();
    await store.close();
  });

  it.each(["proto", "json"] as const)("journals a generateText tool loop sent by the %s exporter", async (exporter) => {
    const runId = `ai-sdk-${exporter}`;
    await tracedGenerateText({ url: collector.url, exporter, runId });
    const run = await store.run(runId);
    expect(run).toMatchObject({ origin: "otel", status: "complete", agent: "weather-agent", modelTurns: 2, toolCalls: 1, inputTokens: 24, outputTokens: 8 });
    const records = await store.history(runId);
    expect(records.map((record) => `${record.name} ${record.kind}`)).toEqual([
      "run:start header",
      "turn:0 model",
      "turn:0:call:0:attempt attempt",
      "turn:0:call:0:result tool_result",
      "turn:1 model",
      "run:complete value",
    ]);
    expect(records[0]?.payload).toMatchObject({ input: "What is the weather in Paris?", system: "Answer briefly.", agent: "weather-agent", tools: ["weather"] });
    expect(records[1]?.payload).toMatchObject({ message: { content: [{ type: "tool-call", toolCallId: "call-1", toolName: "weather", args: { city: "Paris" } }] } });
    expect(records[3]?.payload).toMatchObject({ toolName: "weather", args: { city: "Paris" }, result: { city: "Paris", sky: "sunny" }, isError: false });
    expect(records[5]?.payload).toMatchObject({ value: { text: "Sunny in Paris" } });
    expect(await renderMermaid(store, runId)).toContain("tool: weather");
  });

  it("ignores an exporter's retry of the same spans", async () => {
    const runId = "ai-sdk-proto";
    const before = await store.history(runId);
    const first = collector.requests.find((request) => request.contentType?.includes("protobuf"));
    const result = await ingestOtlp(store, first!);
    expect(result).toMatchObject({ accepted: 0, rejected: 0 });
    expect(result.duplicates).toBeGreaterThan(0);
    expect(await store.history(runId)).toEqual(before);
  });

  it("journals the same loop alike from protobuf and JSON: no divergence", async () => {
    const diff = await diffRuns(store, "ai-sdk-proto", "ai-sdk-json");
    expect(diff.divergentAt).toBeNull();
  });
});
