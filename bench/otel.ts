/**
 * OTLP ingest on the server (issue 14): ingestSpansPerSec. Eight concurrent exporters each send
 * protobuf requests of 512 spans (16 traces of an invoke_agent with 16 chat and 15 execute_tool
 * spans) through ingestOtlp, the route's whole path but HTTP: decode in a pool worker (as the
 * server does), plan, stage and journal; `inProcess` is the same with decoding on this thread.
 * openInferenceSpansPerSec (issue 43): the same traces in OpenInference's attributes (an AGENT with
 * LLM and TOOL spans, messages flattened into indexed keys).
 * The baseline writes the same records (planned once, up front) with one bare multi-row INSERT a
 * request, eight at a time, into a table shaped like `records`. Rounds alternate them and the
 * median round of each is reported. `inProcessReflection` decodes in process with protobufjs
 * reflection (decodeSpansReflective) instead of the hand-written decoder, for comparison.
 */
import postgres from "postgres";
import type { Journal } from "../lib/journal/ports";
import { decodeSpans, decodeSpansReflective } from "../lib/otel/decode";
import { ingestOtlp, type IngestOptions } from "../lib/otel/ingest";
import { planTrace } from "../lib/otel/materialise";
import { prepareOtlp } from "../lib/otel/prepare";
import { ExportTraceServiceRequest } from "../lib/otel/proto";
import { pooledOtlpPreparer } from "../lib/pool/otlp";
import { ProjectionPool } from "../lib/pool/pool";
import { openStore } from "../lib/store/index";
import { interleaved, type Benchmark } from "./harness";

const EXPORTERS = 8;
const SPANS_PER_REQUEST = 512;
const TRACES_PER_REQUEST = 16;
const REQUESTS_PER_EXPORTER = 4;
const ROUNDS = 5;

let traceCounter = 0;

function hex(value: number, digits: number): string {
  return value.toString(16).padStart(digits, "0");
}

const text = (key: string, value: string) => ({ key, value: { stringValue: value } });

type Convention = "genai" | "openinference";

/** A trace's spans' attributes in one convention: the run span, a model span asking for call `id`, the tool span answering it. */
const ATTRIBUTES: Record<Convention, { run: () => unknown[]; model: (id: string) => unknown[]; tool: (id: string) => unknown[] }> = {
  genai: {
    run: () => [
      text("gen_ai.operation.name", "invoke_agent"),
      text("gen_ai.agent.name", "bench"),
      text("gen_ai.input.messages", JSON.stringify([{ role: "user", parts: [{ type: "text", content: "Plan a trip" }] }])),
    ],
    model: (id) => [
      text("gen_ai.operation.name", "chat"),
      text("gen_ai.request.model", "bench-model"),
      text("gen_ai.output.messages", JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id, name: "lookup", arguments: { q: "x".repeat(120) } }] }])),
    ],
    tool: (id) => [
      text("gen_ai.operation.name", "execute_tool"),
      text("gen_ai.tool.name", "lookup"),
      text("gen_ai.tool.call.id", id),
      text("gen_ai.tool.call.arguments", JSON.stringify({ q: "x".repeat(120) })),
      text("gen_ai.tool.call.result", JSON.stringify({ answer: "y".repeat(200) })),
    ],
  },
  openinference: {
    run: () => [text("openinference.span.kind", "AGENT"), text("agent.name", "bench"), text("input.value", "Plan a trip"), text("input.mime_type", "text/plain")],
    model: (id) => [
      text("openinference.span.kind", "LLM"),
      text("llm.model_name", "bench-model"),
      text("llm.input_messages.0.message.role", "user"),
      text("llm.input_messages.0.message.content", "Plan a trip"),
      text("llm.output_messages.0.message.role", "assistant"),
      text("llm.output_messages.0.message.tool_calls.0.tool_call.id", id),
      text("llm.output_messages.0.message.tool_calls.0.tool_call.function.name", "lookup"),
      text("llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments", JSON.stringify({ q: "x".repeat(120) })),
      { key: "llm.token_count.prompt", value: { intValue: 12 } },
      { key: "llm.token_count.completion", value: { intValue: 4 } },
    ],
    tool: (id) => [
      text("openinference.span.kind", "TOOL"),
      text("tool.name", "lookup"),
      text("tool_call.id", id),
      text("input.value", JSON.stringify({ q: "x".repeat(120) })),
      text("input.mime_type", "application/json"),
      text("output.value", JSON.stringify({ answer: "y".repeat(200) })),
      text("output.mime_type", "application/json"),
    ],
  },
};

/** One request: TRACES_PER_REQUEST fresh traces, SPANS_PER_REQUEST spans in all. */
function request(convention: Convention = "genai"): Uint8Array {
  const attributesOf = ATTRIBUTES[convention];
  const spans: unknown[] = [];
  const perTrace = SPANS_PER_REQUEST / TRACES_PER_REQUEST;
  const base = 1_796_000_000_000n * 1_000_000n;
  for (let trace = 0; trace < TRACES_PER_REQUEST; trace += 1) {
    traceCounter += 1;
    const traceId = Buffer.from(hex(traceCounter, 32), "hex");
    const root = Buffer.from(hex(traceCounter * 1000, 16), "hex");
    const at = (ms: number) => String(base + BigInt(traceCounter * 10_000 + ms) * 1_000_000n);
    spans.push({
      traceId,
      spanId: root,
      name: "invoke_agent bench",
      kind: 1,
      startTimeUnixNano: at(0),
      endTimeUnixNano: at(perTrace * 10),
      status: { code: 1 },
      attributes: attributesOf.run(),
    });
    for (let index = 1; index < perTrace; index += 1) {
      const spanId = Buffer.from(hex(traceCounter * 1000 + index, 16), "hex");
      const isModel = index % 2 === 1;
      const attributes = isModel ? attributesOf.model(`c${index}`) : attributesOf.tool(`c${index - 1}`);
      spans.push({
        traceId,
        spanId,
        parentSpanId: root,
        name: isModel ? "chat bench-model" : "execute_tool lookup",
        kind: 1,
        startTimeUnixNano: at(index * 10),
        endTimeUnixNano: at(index * 10 + 5),
        status: { code: 1 },
        attributes,
      });
    }
  }
  const message = ExportTraceServiceRequest.fromObject({
    resourceSpans: [{ resource: { attributes: [text("service.name", "bench")] }, scopeSpans: [{ scope: { name: "bench" }, spans }] }],
  });
  return ExportTraceServiceRequest.encode(message).finish();
}

/** The records ingest writes for a request, planned on an empty database (the baseline's rows). */
function recordsOf(body: Uint8Array): Array<{ run_id: string; seq: number; name: string; kind: string; payload: unknown }> {
  const spans = decodeSpans(body, "protobuf").spans;
  const traces = [...new Set(spans.map((span) => span.traceId))];
  return traces.flatMap((traceId) => {
    const plan = planTrace(
      { traceId, version: 0, runIds: [], spans: [] },
      spans.filter((span) => span.traceId === traceId),
      new Map(),
    );
    return (plan.write?.runs ?? []).flatMap((run) =>
      run.records.map((record) => ({ run_id: `${record.runId}-bare`, seq: record.seq, name: record.name, kind: record.kind, payload: record.payload })),
    );
  });
}

async function concurrently(work: (exporter: number) => Promise<void>): Promise<number> {
  const started = performance.now();
  await Promise.all(Array.from({ length: EXPORTERS }, (_, exporter) => work(exporter)));
  return performance.now() - started;
}

/** The ingest benchmark of one convention, reported under `figure` (and its ratio to the bare INSERT). */
function ingestBenchmark(figure: string, convention: Convention): Benchmark {
  return {
    name: figure,
    async run(context) {
      const url = await context.serverDatabase();
      const store: Journal & { close(): Promise<void> } = await openStore({ url, poolSize: EXPORTERS });
      const bare = postgres(url, { max: EXPORTERS, onnotice: () => undefined });
      await bare`create table bare_records (like records including all)`;
      const spansPerRound = EXPORTERS * REQUESTS_PER_EXPORTER * SPANS_PER_REQUEST;
      const rounds = () => Array.from({ length: EXPORTERS }, () => Array.from({ length: REQUESTS_PER_EXPORTER }, () => request(convention)));
      let recordsPerRound = 0;
      // The server's path: decoding in a pool worker (one a core), planning and writing here.
      const pool = new ProjectionPool();
      const ingestRound = (options: IngestOptions) => async () => {
        const bodies = rounds();
        const ms = await concurrently(async (exporter) => {
          for (const body of bodies[exporter]!) {
            const result = await ingestOtlp(store, { body, contentType: "application/x-protobuf" }, options);
            if (result.accepted !== SPANS_PER_REQUEST) throw new Error(`accepted ${result.accepted} of ${SPANS_PER_REQUEST} spans`);
          }
        });
        return (spansPerRound / ms) * 1000;
      };
      const figures = await interleaved(
        ROUNDS,
        {
          ingest: ingestRound({ prepare: pooledOtlpPreparer(pool) }),
          inProcess: ingestRound({}),
          // The same, decoding through protobufjs reflection (the decoder before decode-proto.ts).
          inProcessReflection: ingestRound({
            prepare: async (raw) => prepareOtlp(raw, (body, encoding) => (encoding === "protobuf" ? decodeSpansReflective(body) : decodeSpans(body, encoding))),
          }),
          insert: async () => {
            const rows = rounds().map((bodies) => bodies.map(recordsOf));
            recordsPerRound = rows.flat(2).length;
            const ms = await concurrently(async (exporter) => {
              for (const batch of rows[exporter]!) {
                await bare.unsafe(
                  `insert into bare_records (run_id, seq, name, kind, payload) select run_id, seq, name, kind, payload from json_to_recordset($1::text::json) as x(run_id text, seq int, name text, kind text, payload json)`,
                  [JSON.stringify(batch)],
                );
              }
            });
            return (spansPerRound / ms) * 1000;
          },
        },
        { warmup: 1 },
      );
      await bare.end();
      await pool.close();
      await store.close();
      return {
        convention,
        [figure]: figures.ingest,
        bareInsertSpansPerSec: figures.insert,
        ingestVsInsert: figures.ingest / figures.insert,
        inProcessSpansPerSec: figures.inProcess,
        inProcessVsInsert: figures.inProcess / figures.insert,
        inProcessReflectionSpansPerSec: figures.inProcessReflection,
        inProcessReflectionVsInsert: figures.inProcessReflection / figures.insert,
        exporters: EXPORTERS,
        spansPerRequest: SPANS_PER_REQUEST,
        recordsPerRound,
        rounds: ROUNDS,
      };
    },
  };
}

export const otelBenchmarks: Benchmark[] = [ingestBenchmark("ingestSpansPerSec", "genai"), ingestBenchmark("openInferenceSpansPerSec", "openinference")];
