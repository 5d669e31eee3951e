/**
 * The span shape lib/otel works on, decoded from OTLP protobuf or OTLP/JSON alike. Ids are lower
 * case hex (trace 32 digits, span 16); times are nanoseconds since the epoch as decimal strings
 * (they overflow a double's integers). Pure data: it is what the store stages, as JSON.
 */
export type AttributeValue = string | number | boolean | null | AttributeValue[] | { [key: string]: AttributeValue };
export type Attributes = Record<string, AttributeValue>;

export interface SpanEvent {
  name: string;
  timeNs: string;
  attributes: Attributes;
}

export interface OtelSpan {
  traceId: string;
  spanId: string;
  /** null for a root span. */
  parentSpanId: string | null;
  name: string;
  kind: number;
  startNs: string;
  endNs: string;
  attributes: Attributes;
  events: SpanEvent[];
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string };
  /** The resource's service.name. */
  service: string | null;
}

export const STATUS_ERROR = 2;

/** A request body's spans, and the spans rejected for bad ids (counted, with their reasons). */
export interface DecodedSpans {
  spans: OtelSpan[];
  rejected: number;
  /** Why spans were rejected, one line per distinct reason. */
  reasons: string[];
}

/**
 * The decimal text of high·2^32 + low (both unsigned 32-bit), exactly and without BigInt or
 * Long.toString (the hot path of a span's two timestamps): high·2^32 = high·4294·10^6 + high·967296,
 * and each part stays below 2^53.
 */
export function unsignedDecimal(low: number, high: number): string {
  const millions = high * 4294;
  const rest = high * 967_296 + low;
  const carried = Math.floor(rest / 1e6);
  const top = millions + carried;
  const bottom = rest - carried * 1e6;
  return top === 0 ? String(bottom) : `${top}${String(bottom).padStart(6, "0")}`;
}

/** Why a span's ids make it unusable (its reason to be rejected), or null when they are valid hex ids ("" for no parent). */
export function invalidSpanIds(traceId: string, spanId: string, parent: string): string | null {
  if (!/^[0-9a-f]{32}$/.test(traceId) || /^0+$/.test(traceId)) return "a span's traceId is not 16 bytes (32 hex digits), or is all zero";
  if (!/^[0-9a-f]{16}$/.test(spanId) || /^0+$/.test(spanId)) return "a span's spanId is not 8 bytes (16 hex digits), or is all zero";
  if (parent !== "" && !/^[0-9a-f]{16}$/.test(parent)) return "a span's parentSpanId is not 8 bytes (16 hex digits)";
  return null;
}

/** Compares two decimal nanosecond strings (no leading zeros) numerically. */
export function compareNs(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Milliseconds since the epoch of a decimal nanosecond string. */
export function nsToMs(ns: string): number {
  return ns.length <= 6 ? 0 : Number(ns.slice(0, -6));
}

/** The last whole second nsToIso formatted, as ISO text up to the dot: a request's spans share seconds. */
let lastSecond = { second: Number.NaN, prefix: "" };

/** An ISO 8601 time of a decimal nanosecond string (millisecond precision). */
export function nsToIso(ns: string): string {
  const ms = nsToMs(ns);
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond.second) lastSecond = { second, prefix: new Date(second * 1000).toISOString().slice(0, -4) };
  return `${lastSecond.prefix}${String(ms - second * 1000).padStart(3, "0")}Z`;
}

const DECIMAL = /^\d{1,20}$/;
/** Seconds apart below which seconds·1e9 + nanoseconds stays an exact double (under 2^53). */
const EXACT_SECONDS = 9_000_000;

/** Whole seconds and the nanoseconds past them of a decimal nanosecond string. */
function secondsOf(ns: string): [seconds: number, nanos: number] {
  return ns.length > 9 ? [Number(ns.slice(0, -9)), Number(ns.slice(-9))] : [0, Number(ns)];
}

/**
 * The nanoseconds between two decimal nanosecond strings, in milliseconds (whole microseconds:
 * the BigInt formula below). Spans shorter than about 100 days take exact double arithmetic on
 * the seconds and the nanoseconds apart, without parsing two BigInts a span.
 */
export function durationMs(startNs: string, endNs: string): number {
  if (DECIMAL.test(startNs) && DECIMAL.test(endNs)) {
    const [startSeconds, startNanos] = secondsOf(startNs);
    const [endSeconds, endNanos] = secondsOf(endNs);
    const seconds = endSeconds - startSeconds;
    if (Math.abs(seconds) < EXACT_SECONDS) {
      const ns = seconds * 1e9 + (endNanos - startNanos);
      return ns > 0 ? (ns - (ns % 1000)) / 1000 / 1000 : 0;
    }
  }
  try {
    const ns = BigInt(endNs) - BigInt(startNs);
    return ns > 0n ? Number(ns / 1000n) / 1000 : 0;
  } catch {
    return 0;
  }
}

export function stringAttribute(attributes: Attributes, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = attributes[key];
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

export function numberAttribute(attributes: Attributes, ...keys: string[]): number | undefined {
  for (const key of keys) {
    const value = attributes[key];
    if (typeof value === "number" && Number.isFinite(value)) return value;
    if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  }
  return undefined;
}

/** A JSON-valued attribute (AI SDK and GenAI semconv send structured values as JSON text). */
export function jsonAttribute(attributes: Attributes, ...keys: string[]): unknown {
  for (const key of keys) {
    const value = attributes[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== "string") return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return undefined;
}
