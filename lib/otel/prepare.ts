/**
 * The request-independent half of OTLP ingest: a raw body (bytes as sent) to the spans ingest
 * keeps, grouped by trace, with the counts and reasons of what was rejected or dropped. Needs no
 * store, so it runs in a pool worker (lib/pool/tasks.ts `otlpPrepare`) or in process alike, and
 * both give the same result: ingest.ts plans and writes from it on the thread that owns the store.
 */
import { decodeSpans, decompress, encodingOf, OTLP_BODY_LIMIT_BYTES } from "./decode";
import { roleOf, runIdAttribute } from "./map";
import type { OtelSpan } from "./spans";

export interface PreparedSpans {
  /** The spans ingest keeps (AI spans with valid ids), by trace, in arrival order. */
  traces: Array<[traceId: string, spans: OtelSpan[]]>;
  /** Run ids the batch may write to: the ones its spans name, and their traces' ids. */
  candidateRunIds: string[];
  /** Spans counted among `kept` in total. */
  kept: number;
  rejected: number;
  dropped: number;
  reasons: string[];
}

export interface RawOtlpBody {
  body: Uint8Array;
  contentType: string | null;
  contentEncoding?: string | null;
}

/**
 * Decodes, decompresses and sorts one request body; typed errors (OtlpBodyError, …) for bad input.
 * `decode` is decodeSpans but for the benchmark, which times protobufjs reflection beside it.
 */
export function prepareOtlp(request: RawOtlpBody, decode: typeof decodeSpans = decodeSpans): PreparedSpans {
  const encoding = encodingOf(request.contentType);
  const body = decompress(request.body, request.contentEncoding ?? null, OTLP_BODY_LIMIT_BYTES);
  const decoded = decode(body, encoding);
  const reasons = [...decoded.reasons];
  const byTrace = new Map<string, OtelSpan[]>();
  let kept = 0;
  for (const span of decoded.spans) {
    if (roleOf(span) === "other") continue;
    kept += 1;
    const spans = byTrace.get(span.traceId);
    if (spans) spans.push(span);
    else byTrace.set(span.traceId, [span]);
  }
  const dropped = decoded.spans.length - kept;
  if (dropped > 0)
    reasons.push(`${dropped} span(s) were not AI spans (generateText, model, tool, retrieval or agent spans; an OpenInference chain below its trace's top) and were dropped`);
  const ids = new Set<string>();
  for (const [traceId, spans] of byTrace) {
    ids.add(traceId);
    for (const span of spans) {
      const id = runIdAttribute(span);
      if (id) ids.add(id);
    }
  }
  return { traces: [...byTrace], candidateRunIds: [...ids], kept, rejected: decoded.rejected, dropped, reasons };
}
