import { randomUUID } from "node:crypto";
import { projectionPool } from "@/app/_server/pool";
import { getStore } from "@/app/_server/store";
import { isBacktrackError } from "@/lib/journal/errors";
import { encodingOf, readOtlpBody } from "@/lib/otel/decode";
import { ingestOtlp } from "@/lib/otel/ingest";
import { pooledOtlpPreparer } from "@/lib/pool/otlp";
import { encodeResponse, encodeStatus, type OtlpReply } from "@/lib/otel/response";

export const dynamic = "force-dynamic";

/** Statuses OTLP/HTTP gives a refused request: the exporter must not retry 400, 413 and 415. */
const REFUSED: Record<string, number> = { bad_input: 400, body_too_large: 413, unsupported_media_type: 415 };
/** The pool's refusals (lib/pool/errors.ts): 503 with Retry-After, which OTLP exporters honour. */
const POOL_REFUSALS = new Set(["pool_busy", "worker_failed", "worker_timeout", "worker_unavailable"]);

function reply(answer: OtlpReply, headers: Record<string, string> = {}): Response {
  return new Response(Buffer.from(answer.body), { status: answer.status, headers: { "content-type": answer.contentType, "cache-control": "no-store", ...headers } });
}

/**
 * POST /v1/traces: the OTLP/HTTP traces endpoint (lib/otel). Protobuf or JSON, gzip or not, at
 * most OTLP_BODY_LIMIT_BYTES (16 MiB) → 200 ExportTraceServiceResponse (partialSuccess counts the
 * spans rejected and says why); 400 malformed, 413 too large, 415 another type, each with a
 * google.rpc.Status; 503 with Retry-After when the pool that decodes is full or its worker failed. Who may send is decided in proxy.ts (BACKTRACK_INGEST_TOKEN).
 */
export async function POST(request: Request): Promise<Response> {
  const contentType = request.headers.get("content-type");
  try {
    encodingOf(contentType);
    const body = await readOtlpBody(request);
    // Decoding runs in a pool worker: the body moves there as bytes, the spans come back by trace.
    const prepare = pooledOtlpPreparer(projectionPool());
    const result = await ingestOtlp(await getStore(), { body, contentType, contentEncoding: request.headers.get("content-encoding") }, { prepare });
    return reply(encodeResponse(result, contentType));
  } catch (error) {
    const status = isBacktrackError(error) ? REFUSED[error.code] : undefined;
    if (status !== undefined) return reply(encodeStatus(status, (error as Error).message, contentType));
    if (isBacktrackError(error) && POOL_REFUSALS.has(error.code)) {
      const seconds = (error as { retryAfterSeconds?: number }).retryAfterSeconds ?? 1;
      return reply(encodeStatus(503, error.message, contentType), { "retry-after": String(seconds) });
    }
    const requestId = randomUUID();
    console.error(`[backtrack] request ${requestId} POST /v1/traces failed:`, error);
    // 503: exporters retry it, and a span written twice is dropped on the way in.
    return reply(encodeStatus(503, `ingest failed (request id ${requestId}); retry`, contentType), { "x-request-id": requestId });
  }
}
