/**
 * OTLP decoding in the projection pool (lib/pool/otlp.ts, the route's path) against decoding in
 * process (a library use): random OTLP payloads, protobuf and JSON, give identical results and
 * identical journals on every store; bad input comes back as the same typed error; and a worker
 * killed mid-decode fails that request cleanly (typed error, nothing stored) while the next succeeds.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isBacktrackError } from "@/lib/journal/errors";
import type { Journal } from "@/lib/journal/ports";
import { OtlpBodyError, OtlpTooLargeError, UnsupportedMediaTypeError } from "@/lib/otel/errors";
import { ingestOtlp, type IngestRequest } from "@/lib/otel/ingest";
import { ExportTraceServiceRequest } from "@/lib/otel/proto";
import { pooledOtlpPreparer } from "@/lib/pool/otlp";
import { ProjectionPool } from "@/lib/pool/pool";
import { STORE_KINDS } from "../helpers/databases";

/** A small seeded generator (mulberry32): a failing seed can be run again. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hex = (value: number, digits: number) => value.toString(16).padStart(digits, "0");
const BASE = 1_796_000_000_000_000_000n;

interface RawSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  start: bigint;
  end: bigint;
  attributes: Array<[string, string | number | boolean]>;
  status: number;
}

/** Random traces: an agent span with model, tool and other spans under it, some with bad ids. */
function randomSpans(next: () => number, seed: number): RawSpan[] {
  const spans: RawSpan[] = [];
  const traces = 1 + Math.floor(next() * 3);
  for (let trace = 0; trace < traces; trace += 1) {
    const traceId = hex(seed * 100 + trace + 1, 32);
    const root = hex((seed * 100 + trace + 1) * 1000, 16);
    const at = (ms: number) => BASE + BigInt(seed * 1_000_000 + trace * 10_000 + ms) * 1_000_000n;
    const count = 1 + Math.floor(next() * 8);
    spans.push({
      ...{ traceId, spanId: root, parentSpanId: "", name: "invoke_agent random", start: at(0), end: at(count * 10 + 10) },
      attributes: [
        ["gen_ai.operation.name", "invoke_agent"],
        ["gen_ai.agent.name", `agent-${Math.floor(next() * 3)}`],
        ["gen_ai.input.messages", JSON.stringify([{ role: "user", parts: [{ type: "text", content: `question ${next()}` }] }])],
      ],
      status: next() < 0.2 ? 2 : 1,
    });
    for (let index = 1; index <= count; index += 1) {
      const roll = next();
      const spanId = next() < 0.05 ? "00" : hex((seed * 100 + trace + 1) * 1000 + index, 16);
      const base = { traceId, spanId, parentSpanId: root, start: at(index * 10), end: at(index * 10 + 5), status: next() < 0.15 ? 2 : 1 };
      if (roll < 0.45)
        spans.push({
          ...base,
          name: "chat random-model",
          attributes: [
            ["gen_ai.operation.name", "chat"],
            ["gen_ai.request.model", "random-model"],
            ["gen_ai.usage.input_tokens", Math.floor(next() * 500)],
            ["gen_ai.usage.output_tokens", Math.floor(next() * 100)],
            ["gen_ai.output.messages", JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: `c${index}`, name: "lookup", arguments: { q: next() } }] }])],
          ],
        });
      else if (roll < 0.85)
        spans.push({
          ...base,
          name: "execute_tool lookup",
          attributes: [
            ["gen_ai.operation.name", "execute_tool"],
            ["gen_ai.tool.name", "lookup"],
            ["gen_ai.tool.call.id", `c${index - 1}`],
            ["gen_ai.tool.call.arguments", JSON.stringify({ q: next() })],
            ["gen_ai.tool.call.result", next() < 0.5 ? JSON.stringify({ answer: next() }) : "plain text"],
            ["retry", next() < 0.5],
          ],
        });
      else spans.push({ ...base, name: "http.request", attributes: [["http.status_code", 200]] });
    }
  }
  // Arrival order is not start order.
  return spans.sort(() => next() - 0.5);
}

function anyValue(raw: string | number | boolean) {
  if (typeof raw === "number") return { intValue: String(raw) };
  if (typeof raw === "boolean") return { boolValue: raw };
  return { stringValue: raw };
}

function encoded(spans: RawSpan[], encoding: "protobuf" | "json"): IngestRequest {
  const id = (text: string) => (encoding === "json" ? text : Buffer.from(text, "hex"));
  const message = {
    resourceSpans: [
      {
        resource: { attributes: [{ key: "service.name", value: { stringValue: "random-service" } }] },
        scopeSpans: [
          {
            scope: { name: "tests" },
            spans: spans.map((span) => ({
              ...{ traceId: id(span.traceId), spanId: id(span.spanId), parentSpanId: id(span.parentSpanId), name: span.name, kind: 1 },
              ...{ startTimeUnixNano: String(span.start), endTimeUnixNano: String(span.end), status: { code: span.status } },
              attributes: span.attributes.map(([key, raw]) => ({ key, value: anyValue(raw) })),
            })),
          },
        ],
      },
    ],
  };
  if (encoding === "json") return { body: new Uint8Array(Buffer.from(JSON.stringify(message))), contentType: "application/json" };
  const bytes = ExportTraceServiceRequest.encode(ExportTraceServiceRequest.fromObject(message)).finish();
  return { body: new Uint8Array(bytes), contentType: "application/x-protobuf" };
}

/** A copy of a request: the pooled path moves (detaches) the body it is given. */
function copy(request: IngestRequest): IngestRequest {
  return { ...request, body: new Uint8Array(request.body) };
}

async function journalOf(store: Journal, runIds: string[]) {
  const journal: unknown[] = [];
  for (const runId of [...runIds].sort()) {
    const run = await store.run(runId);
    const summary = run && {
      origin: run.origin,
      status: run.status,
      agent: run.agent,
      modelTurns: run.modelTurns,
      toolCalls: run.toolCalls,
      inputTokens: run.inputTokens,
      outputTokens: run.outputTokens,
    };
    const records = (await store.history(runId)).map((record) => [record.seq, record.name, record.kind, record.payload, record.createdAt]);
    journal.push([runId, summary, records]);
  }
  return journal;
}

describe.each(STORE_KINDS)("OTLP decoding in the pool: $name", (kind) => {
  let pooledStore: Journal & { close(): Promise<void> };
  let plainStore: Journal & { close(): Promise<void> };
  let pool: ProjectionPool;

  beforeAll(async () => {
    pooledStore = await kind.open();
    plainStore = await kind.open();
    pool = new ProjectionPool({ threads: 1 });
  });
  afterAll(async () => {
    await pool.close();
    await pooledStore.close();
    await plainStore.close();
  });

  it("journals random payloads, protobuf and JSON, exactly as decoding in process does", async () => {
    const prepare = pooledOtlpPreparer(pool);
    const runIds = new Set<string>();
    for (let seed = 1; seed <= 24; seed += 1) {
      const next = random(seed);
      const request = encoded(randomSpans(next, seed), seed % 2 === 0 ? "json" : "protobuf");
      // Some requests are sent twice (an exporter's retry): both paths must count the duplicates alike.
      const sends = next() < 0.25 ? 2 : 1;
      for (let send = 0; send < sends; send += 1) {
        const plain = await ingestOtlp(plainStore, copy(request));
        const pooled = await ingestOtlp(pooledStore, copy(request), { prepare });
        expect(pooled, `seed ${seed}`).toEqual(plain);
        for (const runId of plain.runIds) runIds.add(runId);
      }
    }
    expect(runIds.size).toBeGreaterThan(10);
    expect(await journalOf(pooledStore, [...runIds])).toEqual(await journalOf(plainStore, [...runIds]));
  });

  it("refuses bad input with the same typed error as in process", async () => {
    const prepare = pooledOtlpPreparer(pool);
    const cases: Array<[IngestRequest, new (...args: never[]) => Error]> = [
      [{ body: new Uint8Array(Buffer.from("{not json")), contentType: "application/json" }, OtlpBodyError],
      [{ body: new Uint8Array([0xff, 0xff, 0xff]), contentType: "application/x-protobuf" }, OtlpBodyError],
      [{ body: new Uint8Array(Buffer.from("{}")), contentType: "text/plain" }, UnsupportedMediaTypeError],
      [{ body: new Uint8Array(Buffer.from("{}")), contentType: "application/json", contentEncoding: "br" }, UnsupportedMediaTypeError],
    ];
    for (const [request, type] of cases) {
      const plain = await ingestOtlp(plainStore, copy(request)).catch((error: unknown) => error);
      const pooled = await ingestOtlp(pooledStore, copy(request), { prepare }).catch((error: unknown) => error);
      expect(pooled).toBeInstanceOf(type);
      expect(plain).toBeInstanceOf(type);
      expect({ ...(pooled as object), message: (pooled as Error).message }).toEqual({ ...(plain as object), message: (plain as Error).message });
    }
  });
});

describe("a worker killed mid-decode", () => {
  let store: Journal & { close(): Promise<void> };
  let pool: ProjectionPool;

  beforeAll(async () => {
    store = await STORE_KINDS.find((kind) => kind.name === "server")!.open();
    pool = new ProjectionPool({ threads: 1 });
  });
  afterAll(async () => {
    await pool.close();
    await store.close();
  });

  it("fails its request with a typed error, stores nothing, and the next request succeeds", async () => {
    const prepare = pooledOtlpPreparer(pool);
    const next = random(7);
    const spans = Array.from({ length: 400 }, (_, index) => randomSpans(next, 1000 + index)).flat();
    const request = encoded(spans, "json");
    const body = request.body;
    const failed = ingestOtlp(store, request, { prepare }).catch((error: unknown) => error);
    // The body's buffer is detached once it has moved to the worker: the decode has begun there.
    while (body.byteLength !== 0) await new Promise((resolve) => setImmediate(resolve));
    await pool.threads[0]!.terminate();
    const error = await failed;
    expect(isBacktrackError(error, "worker_failed")).toBe(true);
    expect((await store.runs({ limit: 10 })).runs).toEqual([]);

    const retried = await ingestOtlp(store, encoded(spans.slice(0, 40), "protobuf"), { prepare });
    expect(retried.accepted).toBeGreaterThan(0);
    expect((await store.runs({ limit: 100 })).runs.length).toBe(retried.runIds.length);
  });
});

it("re-creates a body that decompresses past the limit as OtlpTooLargeError with its fields", async () => {
  const { gzipSync } = await import("node:zlib");
  const pool = new ProjectionPool({ threads: 1 });
  const store = await STORE_KINDS[0]!.open();
  try {
    const bomb = new Uint8Array(gzipSync(Buffer.alloc(17 * 1024 * 1024)));
    const error = await ingestOtlp(store, { body: bomb, contentType: "application/json", contentEncoding: "gzip" }, { prepare: pooledOtlpPreparer(pool) }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OtlpTooLargeError);
    expect((error as OtlpTooLargeError).limitBytes).toBe(16 * 1024 * 1024);
  } finally {
    await pool.close();
    await store.close();
  }
});
