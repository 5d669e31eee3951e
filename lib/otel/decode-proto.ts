/**
 * OTLP protobuf (ExportTraceServiceRequest) straight into OtelSpans, hand-written on protobufjs's
 * Reader: no message objects, no Long for a span's two timestamps, strings and ids read once.
 *
 * Invariants (tests/otel/decoders.test.ts holds both decoders to them on real exporter bodies,
 * every truncation of them and random corruptions):
 * - the output and the errors are exactly decodeSpansReflective's (decode.ts: protobufjs 8
 *   reflection over proto.ts, then the generic walker): the same fields (numbers from
 *   opentelemetry-proto's .proto files; any other field is skipped), the same wire-type checks
 *   (a known field with another wire type is skipped as unknown), the same recursion limit and
 *   the same Reader error messages, raised at the same byte;
 * - protobufjs's merge rules: a repeated singular field's last value wins (an empty one clears
 *   it), a singular message field seen twice is merged (Resource, Status, KeyValue.value), and an
 *   AnyValue's oneof is its last member, an ArrayValue or KeyValueList seen twice in a row merged;
 * - values nested deeper than 32 read as null, as the walker reads them, but are still parsed.
 */
import protobuf from "protobufjs/light.js";
import { invalidSpanIds, unsignedDecimal, type Attributes, type AttributeValue, type DecodedSpans, type OtelSpan, type SpanEvent } from "./spans";

type Reader = protobuf.Reader;
const MAX_VALUE_DEPTH = 32;
const ZERO_TRACE = "0".repeat(32);
const ZERO_SPAN = "0".repeat(16);

/** Node's Buffer slicers, which Buffer#toString(encoding, start, end) calls after checking its arguments. */
interface Slicer {
  latin1Slice(start: number, end: number): string;
  hexSlice(start: number, end: number): string;
  base64Slice(start: number, end: number): string;
}
const { readStrict } = protobuf.util.utf8 as unknown as { readStrict(buffer: Uint8Array, start: number, end: number): string };

/** Decodes one request body; the Reader's own errors (RangeError, Error) for bad bytes, as reflection raises them. */
export function decodeOtlpProtobuf(body: Uint8Array): DecodedSpans {
  const r = new protobuf.BufferReader(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
  const out: DecodedSpans = { spans: [], rejected: 0, reasons: [] };
  while (r.pos < r.len) {
    const t = r.tag();
    if (t >>> 3 === 1 && (t & 7) === 2) {
      resourceSpans(r, 1, out);
      continue;
    }
    r.skipType(t & 7, 0, t >>> 3);
  }
  return out;
}

/** Enters a length-delimited message at depth q: its end; the caller restores `r.len` to `saved` with leave(). */
function enter(r: Reader, q: number): { end: number; saved: number } {
  const length = r.size();
  if (q > protobuf.Reader.recursionLimit) throw Error("max depth exceeded");
  const end = r.pos + length;
  if (end > r.len) throw RangeError("index out of range");
  const saved = r.len;
  r.len = end;
  return { end, saved };
}

function leave(r: Reader, frame: { end: number; saved: number }): void {
  if (r.pos !== frame.end) throw RangeError("index out of range");
  r.len = frame.saved;
}

function outOfRange(r: Reader, length: number): RangeError {
  return RangeError(`index out of range: ${r.pos} + ${length || 1} > ${r.len}`);
}

/** A length-delimited field's bytes: moves past them and gives their start (their end is r.pos). */
function claim(r: Reader): number {
  const length = r.size();
  const start = r.pos;
  if (start + length > r.len) throw outOfRange(r, length);
  r.pos = start + length;
  return start;
}

/** Reader.stringVerify, with ASCII read in one slice (anything else goes through protobufjs's own strict reader). */
function text(r: Reader): string {
  const start = claim(r);
  const end = r.pos;
  const length = end - start;
  const buf = r.buf;
  for (let i = start; i < end; i += 1) if (buf[i]! >= 0x80) return readStrict(buf, start, end);
  return length === 0 ? "" : (buf as unknown as Slicer).latin1Slice(start, end);
}

/** Reader.bytes as lower-case hex. */
function hexOf(r: Reader): string {
  const start = claim(r);
  return start === r.pos ? "" : (r.buf as unknown as Slicer).hexSlice(start, r.pos);
}

/** Reader.fixed64 as its unsigned decimal text. */
function fixed64(r: Reader): string {
  if (r.pos + 8 > r.len) throw outOfRange(r, 8);
  const buf = r.buf;
  const p = r.pos;
  r.pos = p + 8;
  const low = (buf[p]! | (buf[p + 1]! << 8) | (buf[p + 2]! << 16) | (buf[p + 3]! << 24)) >>> 0;
  const high = (buf[p + 4]! | (buf[p + 5]! << 8) | (buf[p + 6]! << 16) | (buf[p + 7]! << 24)) >>> 0;
  return unsignedDecimal(low, high);
}

function resourceSpans(r: Reader, q: number, out: DecodedSpans): void {
  const frame = enter(r, q);
  const first = out.spans.length;
  let resource: Attributes | null = null;
  while (r.pos < frame.end) {
    const t = r.tag();
    const field = t >>> 3;
    if ((t & 7) === 2 && field === 1) {
      resource = keyValues(r, q + 1, resource ?? {});
      continue;
    }
    if ((t & 7) === 2 && field === 2) {
      scopeSpans(r, q + 1, out);
      continue;
    }
    r.skipType(t & 7, q, field);
  }
  leave(r, frame);
  const service = (resource ?? {})["service.name"];
  if (typeof service === "string") for (let index = first; index < out.spans.length; index += 1) out.spans[index]!.service = service;
}

/** A message whose field 1 is repeated KeyValue (Resource): its pairs assigned into `into`. */
function keyValues(r: Reader, q: number, into: Attributes): Attributes {
  const frame = enter(r, q);
  while (r.pos < frame.end) {
    const t = r.tag();
    if (t >>> 3 === 1 && (t & 7) === 2) keyValue(r, q + 1, into, 0);
    else r.skipType(t & 7, q, t >>> 3);
  }
  leave(r, frame);
  return into;
}

function scopeSpans(r: Reader, q: number, out: DecodedSpans): void {
  const frame = enter(r, q);
  while (r.pos < frame.end) {
    const t = r.tag();
    const field = t >>> 3;
    if ((t & 7) === 2 && field === 1) scope(r, q + 1);
    else if ((t & 7) === 2 && field === 2) {
      const span = spanOf(r, q + 1);
      if (typeof span === "string") {
        out.rejected += 1;
        if (!out.reasons.includes(span)) out.reasons.push(span);
      } else out.spans.push(span);
    } else r.skipType(t & 7, q, field);
  }
  leave(r, frame);
}

/** InstrumentationScope: read (its strings are checked) and set aside. */
function scope(r: Reader, q: number): void {
  const frame = enter(r, q);
  while (r.pos < frame.end) {
    const t = r.tag();
    const field = t >>> 3;
    if ((t & 7) === 2 && (field === 1 || field === 2)) text(r);
    else r.skipType(t & 7, q, field);
  }
  leave(r, frame);
}

function spanOf(r: Reader, q: number): OtelSpan | string {
  const frame = enter(r, q);
  let traceId = "";
  let spanId = "";
  let parent = "";
  let name = "";
  let kind = 0;
  let startNs = "0";
  let endNs = "0";
  const attributes: Attributes = {};
  const events: SpanEvent[] = [];
  const status = { code: 0, message: "" };
  while (r.pos < frame.end) {
    const t = r.tag();
    const wire = t & 7;
    const field = t >>> 3;
    if (wire === 2 && field === 1) traceId = hexOf(r);
    else if (wire === 2 && field === 2) spanId = hexOf(r);
    else if (wire === 2 && field === 4) parent = hexOf(r);
    else if (wire === 2 && field === 5) name = text(r);
    else if (wire === 0 && field === 6) kind = r.int32();
    else if (wire === 1 && field === 7) startNs = fixed64(r);
    else if (wire === 1 && field === 8) endNs = fixed64(r);
    else if (wire === 2 && field === 9) keyValue(r, q + 1, attributes, 0);
    else if (wire === 2 && field === 11) events.push(eventOf(r, q + 1));
    else if (wire === 2 && field === 15) statusInto(r, q + 1, status);
    else r.skipType(wire, q, field);
  }
  leave(r, frame);
  // Hex made here is lower-case digits: its length and zeros say what invalidSpanIds's patterns would.
  const valid = traceId.length === 32 && traceId !== ZERO_TRACE && spanId.length === 16 && spanId !== ZERO_SPAN && (parent.length === 0 || parent.length === 16);
  const invalid = valid ? null : invalidSpanIds(traceId, spanId, parent);
  if (invalid !== null) return invalid;
  return { traceId, spanId, parentSpanId: parent === "" || parent === ZERO_SPAN ? null : parent, name, kind, startNs, endNs, attributes, events, status, service: null };
}

function statusInto(r: Reader, q: number, status: { code: number; message: string }): void {
  const frame = enter(r, q);
  while (r.pos < frame.end) {
    const t = r.tag();
    const field = t >>> 3;
    if ((t & 7) === 2 && field === 2) status.message = text(r);
    else if ((t & 7) === 0 && field === 3) status.code = r.int32();
    else r.skipType(t & 7, q, field);
  }
  leave(r, frame);
}

function eventOf(r: Reader, q: number): SpanEvent {
  const frame = enter(r, q);
  let timeNs = "0";
  let name = "";
  const attributes: Attributes = {};
  while (r.pos < frame.end) {
    const t = r.tag();
    const field = t >>> 3;
    if ((t & 7) === 1 && field === 1) timeNs = fixed64(r);
    else if ((t & 7) === 2 && field === 2) name = text(r);
    else if ((t & 7) === 2 && field === 3) keyValue(r, q + 1, attributes, 0);
    else r.skipType(t & 7, q, field);
  }
  leave(r, frame);
  return { name, timeNs, attributes };
}

/** A KeyValue assigned into `into` (as the walker assigns it: the last of a key wins), its value read at `depth`. */
function keyValue(r: Reader, q: number, into: Record<string, AttributeValue>, depth: number): void {
  const frame = enter(r, q);
  let key = "";
  let value: AnyState | null = null;
  while (r.pos < frame.end) {
    const t = r.tag();
    const field = t >>> 3;
    if ((t & 7) === 2 && field === 1) key = text(r);
    else if ((t & 7) === 2 && field === 2) value = anyValue(r, q + 1, depth, value);
    else r.skipType(t & 7, q, field);
  }
  leave(r, frame);
  into[key] = value === null || depth > MAX_VALUE_DEPTH ? null : value.value;
}

/** An AnyValue as decoded so far: its oneof member (field number, 0 for none) and that member's value. */
interface AnyState {
  member: number;
  value: AttributeValue;
}

/** An AnyValue (merged into `prior`, as a message field seen twice is); its value as the walker makes it. */
function anyValue(r: Reader, q: number, depth: number, prior: AnyState | null): AnyState {
  const frame = enter(r, q);
  const state: AnyState = prior ?? { member: 0, value: null };
  while (r.pos < frame.end) {
    const t = r.tag();
    const wire = t & 7;
    const field = t >>> 3;
    if (wire === 2 && field === 1) state.value = text(r);
    else if (wire === 0 && field === 2) state.value = r.bool();
    else if (wire === 0 && field === 3) {
      const raw = r.int64();
      const number = Number(String(raw));
      state.value = Number.isSafeInteger(number) ? number : String(raw);
    } else if (wire === 1 && field === 4) {
      const raw = r.double();
      state.value = Number.isFinite(raw) ? raw : String(raw);
    } else if (wire === 2 && field === 5) state.value = arrayValue(r, q + 1, depth, state.member === 5 ? (state.value as AttributeValue[]) : []);
    else if (wire === 2 && field === 6) state.value = kvlistValue(r, q + 1, depth, state.member === 6 ? (state.value as Record<string, AttributeValue>) : {});
    else if (wire === 2 && field === 7) state.value = base64Of(r);
    else {
      r.skipType(wire, q, field);
      continue;
    }
    state.member = field;
  }
  leave(r, frame);
  return state;
}

function arrayValue(r: Reader, q: number, depth: number, items: AttributeValue[]): AttributeValue[] {
  const frame = enter(r, q);
  while (r.pos < frame.end) {
    const t = r.tag();
    if (t >>> 3 === 1 && (t & 7) === 2) {
      const item = anyValue(r, q + 1, depth + 1, null);
      items.push(depth + 1 > MAX_VALUE_DEPTH ? null : item.value);
    } else r.skipType(t & 7, q, t >>> 3);
  }
  leave(r, frame);
  return items;
}

function kvlistValue(r: Reader, q: number, depth: number, entries: Record<string, AttributeValue>): Record<string, AttributeValue> {
  const frame = enter(r, q);
  while (r.pos < frame.end) {
    const t = r.tag();
    if (t >>> 3 === 1 && (t & 7) === 2) keyValue(r, q + 1, entries, depth + 1);
    else r.skipType(t & 7, q, t >>> 3);
  }
  leave(r, frame);
  return entries;
}

function base64Of(r: Reader): string {
  const length = r.size();
  const start = r.pos;
  const end = start + length;
  if (end > r.len) throw outOfRange(r, length);
  r.pos = end;
  return (r.buf as unknown as Slicer).base64Slice(start, end);
}
