/**
 * The hand-written OTLP protobuf decoder (lib/otel/decode-proto.ts, what decodeSpans uses) against
 * protobufjs reflection over proto.ts (decodeSpansReflective, the reference): identical spans for
 * the bodies the stock OpenTelemetry proto exporter sends (AI SDK and OpenInference clients, and
 * a span with events, links, arrays and every status), for crafted bodies that exercise
 * protobufjs's merge, oneof, wire-type and depth rules, and the same OtlpBodyError, message
 * included, for every truncation of a real body and for seeded random corruptions of it.
 */
import { trace, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import protobuf from "protobufjs/light.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeSpans, decodeSpansReflective, decompress, type DecodedSpans } from "@/lib/otel/decode";
import { isBacktrackError } from "@/lib/journal/errors";
import { startCollector, tracedGenerateText, type Collector, type Exported } from "./clients";
import { startFakeOpenAI, tracedOpenAIAgent, type FakeOpenAI } from "./openinference-clients";

type Outcome = { ok: true; value: DecodedSpans; json: string } | { ok: false; code: string; message: string };

function outcome(decode: () => DecodedSpans): Outcome {
  try {
    const value = decode();
    return { ok: true, value, json: JSON.stringify(value) };
  } catch (error) {
    if (!isBacktrackError(error)) throw error;
    return { ok: false, code: error.code, message: error.message };
  }
}

/** Both decoders on one body: the same spans (key order too) or the same typed error. */
function expectSame(body: Uint8Array, label: string): Outcome {
  const hand = outcome(() => decodeSpans(body, "protobuf"));
  const reflective = outcome(() => decodeSpansReflective(body));
  expect(hand, label).toStrictEqual(reflective);
  return hand;
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** A span with what the AI SDK never sends: events, links, array and number attributes, an error status. */
async function richExport(url: string): Promise<void> {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": "rich", "service.instance.id": 7, "deployment.flags": [true, false] }),
    spanProcessors: [new BatchSpanProcessor(new ProtoExporter({ url }))],
  });
  const tracer = provider.getTracer("decoders", "1.2.3");
  tracer.startActiveSpan("invoke_agent rich", { kind: SpanKind.SERVER, attributes: { "gen_ai.operation.name": "invoke_agent" } }, (root) => {
    const child = tracer.startSpan("chat rich", {
      kind: SpanKind.CLIENT,
      attributes: { "gen_ai.operation.name": "chat", "gen_ai.usage.input_tokens": 2 ** 40, ratio: 0.25, ok: true, tags: ["a", "é", "日本"], ints: [1, -2, 3], floats: [1.5, -0] },
      links: [{ context: root.spanContext(), attributes: { why: "follows" } }],
    });
    child.addEvent("gen_ai.choice", { index: 0, text: "ünïcode ✓" });
    child.addEvent("empty");
    child.setStatus({ code: SpanStatusCode.ERROR, message: "the model refused" });
    child.end();
    root.setStatus({ code: SpanStatusCode.OK });
    root.end();
  });
  await provider.forceFlush();
  await provider.shutdown();
  trace.disable();
}

describe("otel protobuf decoders (hand-written against reflection)", () => {
  let collector: Collector;
  let openai: FakeOpenAI;
  const bodies: Array<{ label: string; body: Uint8Array }> = [];

  beforeAll(async () => {
    openai = await startFakeOpenAI();
    collector = await startCollector(async () => ({ status: 200, body: new Uint8Array(0), contentType: "application/x-protobuf" }));
    await tracedGenerateText({ url: collector.url, exporter: "proto", runId: "decoders-run" });
    await tracedOpenAIAgent({ url: collector.url, exporter: "proto", openai, question: "Charge order-123 for the desk." });
    await richExport(collector.url);
    collector.requests.forEach((request: Exported, index) => bodies.push({ label: `export ${index}`, body: decompress(request.body, request.contentEncoding) }));
  });

  afterAll(async () => {
    await collector.close();
    await openai.close();
  });

  it("decodes the stock proto exporter's bodies to exactly the same spans", () => {
    expect(bodies.length).toBeGreaterThanOrEqual(3);
    let spans = 0;
    for (const { label, body } of bodies) {
      const result = expectSame(body, label);
      if (!result.ok) throw new Error(`${label}: ${result.message}`);
      spans += result.value.spans.length;
    }
    const all = bodies.flatMap(({ body }) => decodeSpans(body, "protobuf").spans);
    expect(spans).toBe(all.length);
    // The rich span's values came through (not only both sides empty).
    const chat = all.find((span) => span.name === "chat rich");
    expect(chat?.attributes).toMatchObject({ "gen_ai.usage.input_tokens": 2 ** 40, ratio: 0.25, ok: true, tags: ["a", "é", "日本"], ints: [1, -2, 3] });
    expect(chat?.events.map((event) => [event.name, event.attributes])).toEqual([
      ["gen_ai.choice", { index: 0, text: "ünïcode ✓" }],
      ["empty", {}],
    ]);
    expect(chat?.status).toEqual({ code: 2, message: "the model refused" });
    expect(chat?.service).toBe("rich");
    expect(all.some((span) => span.name === "ai.toolCall")).toBe(true);
    expect(all.some((span) => span.attributes["openinference.span.kind"] === "LLM")).toBe(true);
  });

  it("fails alike, message included, at every truncation of a real body", () => {
    const { body } = bodies.reduce((largest, entry) => (entry.body.length > largest.body.length ? entry : largest));
    let failures = 0;
    for (let length = 0; length < body.length; length += 1) {
      if (!expectSame(body.subarray(0, length), `first ${length} bytes`).ok) failures += 1;
    }
    expect(failures).toBeGreaterThan(body.length / 2);
  });

  it("agrees on seeded random corruptions of real bodies (bytes changed, inserted, removed)", () => {
    const random = seeded(42);
    const seen = { ok: 0, failed: 0 };
    for (let round = 0; round < 3_000; round += 1) {
      const source = bodies[round % bodies.length]!.body;
      const bytes = [...source];
      for (let edits = 1 + Math.floor(random() * 3); edits > 0; edits -= 1) {
        const at = Math.floor(random() * bytes.length);
        const kind = random();
        if (kind < 0.6) bytes[at] = Math.floor(random() * 256);
        else if (kind < 0.8) bytes.splice(at, 0, Math.floor(random() * 256));
        else bytes.splice(at, 1);
      }
      const result = expectSame(new Uint8Array(bytes), `corruption ${round}`);
      seen[result.ok ? "ok" : "failed"] += 1;
    }
    // Both kinds happen, so both sides are compared on each.
    expect(seen.ok).toBeGreaterThan(100);
    expect(seen.failed).toBeGreaterThan(100);
  });

  it("follows protobufjs's rules on merged fields, oneofs, wire types, unknown fields and depth", () => {
    for (const [label, body] of Object.entries(craftedBodies())) {
      const result = expectSame(body, label);
      if (label.startsWith("bad:")) expect(result.ok, label).toBe(false);
      else expect(result.ok, label).toBe(true);
    }
  });
});

const W = () => protobuf.Writer.create();

/** A length-delimited field holding what `fill` writes. */
function message(writer: protobuf.Writer, field: number, fill: (inner: protobuf.Writer) => void): protobuf.Writer {
  writer.uint32((field << 3) | 2).fork();
  fill(writer);
  return writer.ldelim();
}

const text = (writer: protobuf.Writer, field: number, value: string) => writer.uint32((field << 3) | 2).string(value);
const ids = (span: protobuf.Writer, trace = "0123456789abcdef0123456789abcdef", id = "00000000000000a1") =>
  span
    .uint32((1 << 3) | 2)
    .bytes(Buffer.from(trace, "hex"))
    .uint32((2 << 3) | 2)
    .bytes(Buffer.from(id, "hex"));

/** A request of one ResourceSpans whose one span gets `fill` after its ids; each of `resources` fills a Resource field. */
function request(fill: (span: protobuf.Writer) => void, ...resources: Array<(inner: protobuf.Writer) => void>): Uint8Array {
  return message(W(), 1, (resourceSpans) => {
    for (const resource of resources) message(resourceSpans, 1, resource);
    message(resourceSpans, 2, (scope) => message(scope, 2, (span) => fill(ids(span))));
  }).finish();
}

/** An attribute `key` whose AnyValue gets `fill`. */
function attribute(span: protobuf.Writer, key: string, fill: (value: protobuf.Writer) => void, field = 9): void {
  message(span, field, (pair) => {
    text(pair, 1, key);
    message(pair, 2, fill);
  });
}

function nested(depth: number): (value: protobuf.Writer) => void {
  return (value) => {
    if (depth === 0) text(value, 1, "bottom");
    else message(value, 5, (array) => message(array, 1, nested(depth - 1)));
  };
}

function craftedBodies(): Record<string, Uint8Array> {
  const garbage = Buffer.from([0xc3, 0x28, 0xa0, 0xa1]);
  return {
    "two statuses merge": request((span) => {
      message(span, 15, (status) => status.uint32((3 << 3) | 0).int32(2));
      message(span, 15, (status) => text(status, 2, "later message"));
    }),
    "a later zero clears": request((span) =>
      span
        .uint32((6 << 3) | 0)
        .int32(3)
        .uint32((6 << 3) | 0)
        .int32(0),
    ),
    "two resources merge (the last service wins)": request(
      () => undefined,
      (resource) => attribute(resource, "service.name", (value) => text(value, 1, "first"), 1),
      (resource) => attribute(resource, "service.name", (value) => text(value, 1, "second"), 1),
    ),
    "a later resource keeps the earlier's service": request(
      () => undefined,
      (resource) => attribute(resource, "service.name", (value) => text(value, 1, "earlier"), 1),
      (resource) => attribute(resource, "host.name", (value) => text(value, 1, "later"), 1),
    ),
    "oneof: last member wins, arrays seen twice merge": request((span) => {
      attribute(span, "switch", (value) => {
        text(value, 1, "a string");
        value.uint32((3 << 3) | 0).int64(7);
      });
      attribute(span, "merged", (value) => {
        message(value, 5, (array) => message(array, 1, (item) => text(item, 1, "one")));
        message(value, 5, (array) => message(array, 1, (item) => item.uint32((2 << 3) | 0).bool(true)));
      });
      attribute(span, "reset", (value) => {
        message(value, 5, (array) => message(array, 1, (item) => text(item, 1, "gone")));
        value.uint32((4 << 3) | 1).double(Number.NaN);
        message(value, 5, (array) => message(array, 1, (item) => text(item, 1, "kept")));
      });
      attribute(span, "kv", (value) => {
        message(value, 6, (list) => message(list, 1, (pair) => (text(pair, 1, "x"), message(pair, 2, (inner) => inner.uint32((4 << 3) | 1).double(-0)))));
        message(value, 6, (list) => message(list, 1, (pair) => text(pair, 1, "no value")));
      });
    }),
    "a value merged from two AnyValue fields of one KeyValue": request((span) => {
      message(span, 9, (pair) => {
        text(pair, 1, "arrays");
        message(pair, 2, (value) => message(value, 5, (array) => message(array, 1, (item) => text(item, 1, "first"))));
        message(pair, 2, (value) => message(value, 5, (array) => message(array, 1, (item) => text(item, 1, "second"))));
      });
      message(span, 9, (pair) => {
        text(pair, 1, "kept");
        message(pair, 2, (value) => text(value, 1, "a string"));
        message(pair, 2, () => undefined);
      });
    }),
    "int64 beyond 2^53, negative, bytes, empty and __proto__ keys": request((span) => {
      attribute(span, "big", (value) => value.uint32((3 << 3) | 0).int64("9223372036854775807"));
      attribute(span, "negative", (value) => value.uint32((3 << 3) | 0).int64(-5));
      attribute(span, "bytes", (value) => value.uint32((7 << 3) | 2).bytes(Buffer.from([0, 1, 254, 255])));
      attribute(span, "infinite", (value) => value.uint32((4 << 3) | 1).double(Number.POSITIVE_INFINITY));
      attribute(span, "", () => undefined);
      attribute(span, "__proto__", (value) =>
        message(value, 6, (list) => message(list, 1, (pair) => (text(pair, 1, "service.name"), message(pair, 2, (inner) => text(inner, 1, "sneaky"))))),
      );
      message(span, 9, (pair) => text(pair, 1, "no value at all"));
    }),
    "wrong wire types and unknown fields (groups too) are skipped": request((span) => {
      span.uint32((5 << 3) | 0).uint32(9); // name as a varint
      span.uint32((7 << 3) | 0).uint32(1); // a start time as a varint
      span.uint32((9 << 3) | 5).fixed32(1); // attributes as fixed32
      text(span, 3, "trace-state");
      span.uint32((13 << 3) | 3); // a group: start, one field, end
      text(span, 1, "inside");
      span.uint32((13 << 3) | 4);
      span.uint32((99 << 3) | 1).fixed64(1);
      attribute(span, "strindex", (value) => value.uint32((8 << 3) | 0).int32(4));
    }),
    "values nested deeper than 32 read as null": request((span) => attribute(span, "deep", nested(40))),
    "ids: zero, short, long and a zero parent": message(W(), 1, (resourceSpans) =>
      message(resourceSpans, 2, (scope) => {
        message(scope, 2, (span) => ids(span, "0".repeat(32)));
        message(scope, 2, (span) => ids(span, "0123456789abcdef0123456789abcdef", "00"));
        message(scope, 2, (span) => ids(span, "0123456789abcdef0123456789abcdef00"));
        message(scope, 2, (span) =>
          ids(span)
            .uint32((4 << 3) | 2)
            .bytes(Buffer.alloc(8)),
        );
        message(scope, 2, (span) =>
          ids(span)
            .uint32((4 << 3) | 2)
            .bytes(Buffer.alloc(3)),
        );
      }),
    ).finish(),
    "bad: nested past the recursion limit": request((span) => attribute(span, "deep", nested(60))),
    "bad: a string that is not UTF-8": request((span) => span.uint32((5 << 3) | 2).bytes(garbage)),
    "bad: an invalid scope name": message(W(), 1, (resourceSpans) =>
      message(resourceSpans, 2, (scope) => message(scope, 1, (inner) => inner.uint32((1 << 3) | 2).bytes(garbage))),
    ).finish(),
    "bad: a field number 0": request((span) => span.uint32(0).uint32(0)),
    "bad: an end group alone": request((span) => span.uint32((3 << 3) | 4)),
    "bad: wire type 7": request((span) => span.uint32((3 << 3) | 7)),
    "bad: a length past the end": new Uint8Array([0x0a, 0x7f, 0x12]),
    // Each read past its message's end, inside a message whose own length is right.
    "bad: a fixed64 cut short": request((span) =>
      span
        .uint32((7 << 3) | 1)
        .uint32(1)
        .uint32(2)
        .uint32(3),
    ),
    "bad: a double cut short": request((span) =>
      attribute(span, "d", (value) =>
        value
          .uint32((4 << 3) | 1)
          .uint32(1)
          .uint32(2),
      ),
    ),
    "bad: a string cut short": request((span) =>
      span
        .uint32((5 << 3) | 2)
        .uint32(10)
        .uint32(65),
    ),
    "bad: an id cut short": request((span) =>
      span
        .uint32((4 << 3) | 2)
        .uint32(8)
        .uint32(1),
    ),
    "bad: bytes cut short": request((span) =>
      attribute(span, "b", (value) =>
        value
          .uint32((7 << 3) | 2)
          .uint32(5)
          .uint32(1),
      ),
    ),
    "bad: a varint cut short": request((span) => span.uint32((6 << 3) | 0).raw(new Uint8Array([0x80]))),
    "bad: a nested length past its parent's": request((span) =>
      span
        .uint32((15 << 3) | 2)
        .uint32(4)
        .uint32(18)
        .uint32(9),
    ),
  };
}
