/**
 * The OTLP/HTTP answers: ExportTraceServiceResponse (with partialSuccess when spans were rejected
 * or dropped) and, for a refused request, a google.rpc.Status, each in the request's encoding.
 */
import type { OtlpEncoding } from "./decode";
import type { IngestResult } from "./ingest";
import { ExportTraceServiceResponse, RpcStatus } from "./proto";

export interface OtlpReply {
  status: number;
  body: Uint8Array;
  contentType: string;
}

function encodingFrom(contentType: string | null): OtlpEncoding {
  return (contentType ?? "").toLowerCase().includes("json") ? "json" : "protobuf";
}

/** 200 with an ExportTraceServiceResponse; partialSuccess only when something was rejected or dropped. */
export function encodeResponse(result: Pick<IngestResult, "rejected" | "message">, contentType: string | null): OtlpReply {
  const partial = result.message !== "" || result.rejected > 0 ? { partialSuccess: { rejectedSpans: result.rejected, errorMessage: result.message } } : {};
  if (encodingFrom(contentType) === "json") return { status: 200, body: Buffer.from(JSON.stringify(partial)), contentType: "application/json" };
  const message = ExportTraceServiceResponse.fromObject(partial);
  return { status: 200, body: ExportTraceServiceResponse.encode(message).finish(), contentType: "application/x-protobuf" };
}

/** An error status with a google.rpc.Status body saying why. */
export function encodeStatus(status: number, message: string, contentType: string | null): OtlpReply {
  // gRPC codes: INVALID_ARGUMENT 3, RESOURCE_EXHAUSTED 8, UNAUTHENTICATED 16, PERMISSION_DENIED 7, INTERNAL 13, UNAVAILABLE 14.
  const code = status === 400 || status === 415 ? 3 : status === 413 ? 8 : status === 401 ? 16 : status === 403 ? 7 : status === 503 ? 14 : 13;
  if (encodingFrom(contentType) === "json") return { status, body: Buffer.from(JSON.stringify({ code, message })), contentType: "application/json" };
  return { status, body: RpcStatus.encode(RpcStatus.fromObject({ code, message })).finish(), contentType: "application/x-protobuf" };
}
