/**
 * Decoding an OTLP/HTTP traces body (ExportTraceServiceRequest) into OtelSpans: protobuf or JSON,
 * gzip or not. A body that is not a request at all is OtlpBodyError (400); a span without valid
 * ids is rejected alone and counted (the response's partialSuccess), never guessed at.
 * Decompression is bounded by the same limit as the body, so a small gzip bomb is refused too.
 */
import { gunzipSync } from "node:zlib";
import { readBoundedBody, type BodyRefusals } from "../journal/import-body";
import { OtlpBodyError, OtlpTooLargeError, UnsupportedMediaTypeError } from "./errors";
import { decodeOtlpProtobuf } from "./decode-proto";
import { ExportTraceServiceRequest } from "./proto";
import { invalidSpanIds, unsignedDecimal, type Attributes, type AttributeValue, type DecodedSpans, type OtelSpan, type SpanEvent } from "./spans";

export { unsignedDecimal };

/** The largest OTLP body accepted, compressed or after decompression (16 MiB); 413 above it. */
export const OTLP_BODY_LIMIT_BYTES = 16 * 1024 * 1024;

export type OtlpEncoding = "protobuf" | "json";

export type { DecodedSpans };

/** Which encoding a Content-Type names; UnsupportedMediaTypeError for any other. */
export function encodingOf(contentType: string | null): OtlpEncoding {
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase();
  if (type === "application/x-protobuf" || type === "application/protobuf") return "protobuf";
  if (type === "application/json") return "json";
  throw new UnsupportedMediaTypeError(contentType);
}

/** Undoes a Content-Encoding (gzip or none), within OTLP_BODY_LIMIT_BYTES. */
export function decompress(body: Uint8Array, contentEncoding: string | null, limitBytes = OTLP_BODY_LIMIT_BYTES): Uint8Array {
  const encoding = (contentEncoding ?? "").trim().toLowerCase();
  if (encoding === "" || encoding === "identity") return body;
  if (encoding !== "gzip") throw new UnsupportedMediaTypeError(`Content-Encoding ${contentEncoding}`);
  try {
    return gunzipSync(body, { maxOutputLength: limitBytes });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE" || error instanceof RangeError) throw new OtlpTooLargeError(limitBytes + 1, limitBytes);
    throw new OtlpBodyError("the gzip body could not be decompressed", { cause: error });
  }
}

/** A body's spans: protobuf through the hand-written decoder (decode-proto.ts), JSON through the walker below. */
export function decodeSpans(body: Uint8Array, encoding: OtlpEncoding): DecodedSpans {
  if (encoding === "json") return walk(decodeJson(body));
  try {
    return decodeOtlpProtobuf(body);
  } catch (error) {
    throw protobufError(error);
  }
}

/** The same as decodeSpans for protobuf, through protobufjs reflection (proto.ts) and the walker: the reference decode-proto.ts is held to. */
export function decodeSpansReflective(body: Uint8Array): DecodedSpans {
  return walk(decodeProtobuf(body));
}

function protobufError(error: unknown): OtlpBodyError {
  return new OtlpBodyError(`the body is not an OTLP ExportTraceServiceRequest in protobuf: ${(error as Error).message}`, { cause: error });
}

/** A decoded request (reflection's message or OTLP/JSON's object) into spans. */
function walk(request: Record<string, unknown>): DecodedSpans {
  const out: DecodedSpans = { spans: [], rejected: 0, reasons: [] };
  const resourceSpans = array(request.resourceSpans, "resourceSpans");
  for (const resourceSpan of resourceSpans) {
    const resource = object(resourceSpan, "resourceSpans[]");
    const service = attributesOf((resource.resource as Record<string, unknown> | undefined)?.attributes)["service.name"];
    for (const scopeSpan of array(resource.scopeSpans, "scopeSpans")) {
      for (const raw of array(object(scopeSpan, "scopeSpans[]").spans, "spans")) {
        const span = spanOf(object(raw, "spans[]"), typeof service === "string" ? service : null);
        if (typeof span === "string") {
          out.rejected += 1;
          if (!out.reasons.includes(span)) out.reasons.push(span);
        } else out.spans.push(span);
      }
    }
  }
  return out;
}

// The decoded message is read in place (no toObject copy): 64-bit fields are Long objects, read
// through String(), and an AnyValue says which member it holds in its `value` oneof property.
function decodeProtobuf(body: Uint8Array): Record<string, unknown> {
  try {
    return ExportTraceServiceRequest.decode(body) as unknown as Record<string, unknown>;
  } catch (error) {
    throw protobufError(error);
  }
}

function decodeJson(body: Uint8Array): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body).toString("utf8"));
  } catch (error) {
    throw new OtlpBodyError(`the body is not JSON: ${(error as Error).message}`, { cause: error });
  }
  return object(parsed, "the body");
}

function object(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new OtlpBodyError(`${where} must be an object`);
  return value as Record<string, unknown>;
}

function array(value: unknown, where: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new OtlpBodyError(`${where} must be an array`);
  return value;
}

/** A trace or span id: protobuf bytes, or hex in OTLP/JSON. Empty for a missing one. */
function idOf(value: unknown): string {
  if (value === undefined || value === null || value === "") return "";
  // A view of the decoded bytes, not a copy.
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex");
  // protobufjs's default for an absent bytes field is an empty array.
  if (Array.isArray(value) && value.length === 0) return "";
  if (typeof value === "string") return value.toLowerCase();
  return "?";
}

function nanos(value: unknown): string {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return String(value);
  // A fixed64 is unsigned: its bits are the value, whatever the Long's sign flag.
  if (isLong(value)) return unsignedDecimal(value.low >>> 0, value.high >>> 0);
  const text = typeof value === "object" && value !== null ? String(value) : value;
  if (typeof text === "string" && /^\d{1,20}$/.test(text)) return text.replace(/^0+(?=\d)/, "");
  return "0";
}

/** protobufjs's Long, as it decodes a fixed64 (long.js installed). */
interface LongBits {
  low: number;
  high: number;
}

function isLong(value: unknown): value is LongBits {
  return typeof value === "object" && value !== null && typeof (value as LongBits).low === "number" && typeof (value as LongBits).high === "number";
}

function spanOf(raw: Record<string, unknown>, service: string | null): OtelSpan | string {
  const traceId = idOf(raw.traceId);
  const spanId = idOf(raw.spanId);
  const parent = idOf(raw.parentSpanId);
  const invalid = invalidSpanIds(traceId, spanId, parent);
  if (invalid) return invalid;
  const status = (raw.status ?? {}) as Record<string, unknown>;
  const events: SpanEvent[] = array(raw.events, "events").map((event) => {
    const fields = object(event, "events[]");
    return { name: String(fields.name ?? ""), timeNs: nanos(fields.timeUnixNano), attributes: attributesOf(fields.attributes) };
  });
  return {
    traceId,
    spanId,
    parentSpanId: parent === "" || /^0+$/.test(parent) ? null : parent,
    name: typeof raw.name === "string" ? raw.name : "",
    kind: Number(raw.kind ?? 0) || 0,
    startNs: nanos(raw.startTimeUnixNano),
    endNs: nanos(raw.endTimeUnixNano),
    attributes: attributesOf(raw.attributes),
    events,
    status: { code: Number(status.code ?? 0) || 0, message: typeof status.message === "string" ? status.message : "" },
    service,
  };
}

function attributesOf(value: unknown): Attributes {
  const attributes: Attributes = {};
  for (const entry of array(value, "attributes")) {
    const pair = object(entry, "attributes[]");
    if (typeof pair.key !== "string") continue;
    attributes[pair.key] = valueOf(pair.value, 0);
  }
  return attributes;
}

/** An AnyValue as plain JSON; int64 beyond a double's integers stays a decimal string. */
function valueOf(value: unknown, depth: number): AttributeValue {
  if (typeof value !== "object" || value === null || depth > 32) return null;
  const any = value as Record<string, unknown>;
  // Protobuf: the oneof names the member set (unset members read as defaults); JSON: the one key.
  const member = typeof any.value === "string" ? any.value : Object.keys(any)[0];
  const raw = member === undefined ? undefined : any[member];
  switch (member) {
    case "stringValue":
      return typeof raw === "string" ? raw : null;
    case "boolValue":
      return typeof raw === "boolean" ? raw : null;
    case "intValue": {
      const number = Number(String(raw));
      return Number.isSafeInteger(number) ? number : String(raw);
    }
    case "doubleValue": {
      const number = Number(raw);
      return Number.isFinite(number) ? number : String(raw);
    }
    case "arrayValue":
      return array((raw as Record<string, unknown> | null)?.values, "arrayValue").map((item) => valueOf(item, depth + 1));
    case "kvlistValue": {
      const entries: Record<string, AttributeValue> = {};
      for (const entry of array((raw as Record<string, unknown> | null)?.values, "kvlistValue")) {
        const pair = object(entry, "kvlistValue[]");
        if (typeof pair.key === "string") entries[pair.key] = valueOf(pair.value, depth + 1);
      }
      return entries;
    }
    case "bytesValue":
      return raw instanceof Uint8Array ? Buffer.from(raw).toString("base64") : typeof raw === "string" ? raw : null;
    case undefined:
    default:
      return null;
  }
}

const OTLP_REFUSALS: BodyRefusals = {
  tooLarge: (bytes, limitBytes) => new OtlpTooLargeError(bytes, limitBytes),
  mismatch: (declared, received) => new OtlpBodyError(`the body is ${received} bytes but Content-Length said ${declared}`),
};

/** A request's whole body, refused above `limitBytes` (declared or read) and when cut short of its Content-Length. */
export async function readOtlpBody(request: Request, limitBytes = OTLP_BODY_LIMIT_BYTES): Promise<Uint8Array> {
  return new Uint8Array(await readBoundedBody(request, limitBytes, OTLP_REFUSALS));
}
