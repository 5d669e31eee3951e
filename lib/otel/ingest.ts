/**
 * OTLP ingest: an ExportTraceServiceRequest's spans into journal runs (origin `otel`). Spans are
 * grouped by trace; each trace is read from the store's staging, planned (materialise.ts) and
 * written in one all-or-nothing write per request. A write that lost a race with another writer
 * of the same trace (TraceConflictError) is read again and retried, so concurrent exporters never
 * double a span or a seq. Framework-free: the route and the tests call it with bytes.
 */
import { BadInputError, isBacktrackError } from "../journal/errors";
import { isTraceStaging, type Journal, type TraceRunState, type TraceWrite } from "../journal/ports";
import { decodeSpans, decompress, encodingOf, OTLP_BODY_LIMIT_BYTES, type DecodedSpans } from "./decode";
import { planTrace } from "./materialise";
import { roleOf, runIdAttribute } from "./map";
import type { OtelSpan } from "./spans";

const CONFLICT_RETRIES = 20;

export interface IngestResult {
  /** Spans journaled or staged (duplicates of spans already received count here too: they are not errors). */
  accepted: number;
  rejected: number;
  /** Spans that map to nothing in the journal (not AI spans): counted and dropped. */
  dropped: number;
  /** Spans seen before (an exporter's retry): ignored. */
  duplicates: number;
  /** Why spans were rejected or dropped, for the response's partialSuccess.errorMessage. */
  message: string;
  runIds: string[];
}

export interface IngestRequest {
  body: Uint8Array;
  contentType: string | null;
  contentEncoding?: string | null;
}

/** Decodes and ingests one OTLP/HTTP request body. */
export async function ingestOtlp(store: Journal, request: IngestRequest): Promise<IngestResult> {
  const encoding = encodingOf(request.contentType);
  const body = decompress(request.body, request.contentEncoding ?? null, OTLP_BODY_LIMIT_BYTES);
  return ingestSpans(store, decodeSpans(body, encoding));
}

/** Ingests decoded spans (see ingestOtlp). */
export async function ingestSpans(store: Journal, decoded: DecodedSpans): Promise<IngestResult> {
  if (!isTraceStaging(store)) throw new BadInputError("this store cannot ingest OTLP traces");
  const reasons = [...decoded.reasons];
  const kept = decoded.spans.filter((span) => roleOf(span) !== "other");
  const dropped = decoded.spans.length - kept.length;
  if (dropped > 0)
    reasons.push(`${dropped} span(s) were not AI spans (generateText, model, tool, retrieval or agent spans; an OpenInference chain below its trace's top) and were dropped`);
  const byTrace = new Map<string, OtelSpan[]>();
  for (const span of kept) {
    const spans = byTrace.get(span.traceId);
    if (spans) spans.push(span);
    else byTrace.set(span.traceId, [span]);
  }
  const result: IngestResult = { accepted: 0, rejected: decoded.rejected, dropped, duplicates: 0, message: "", runIds: [] };
  // Run ids a lost race showed this batch writes to (sub-agent runs): read with the next try.
  const written = new Set<string>();
  for (let attempt = 0; ; attempt += 1) {
    const { traces, runs } = await store.loadTraces([...byTrace.keys()], [...candidateRunIds(byTrace), ...written]);
    const states = new Map<string, TraceRunState>(runs.map((run) => [run.runId, run]));
    const writes: TraceWrite[] = [];
    let accepted = 0;
    let rejected = 0;
    const planReasons: string[] = [];
    const claimed = new Set<string>();
    for (const trace of traces) {
      const incoming = byTrace.get(trace.traceId) ?? [];
      const plan = planTrace(trace, incoming, states, claimed);
      accepted += plan.accepted;
      rejected += plan.rejected;
      planReasons.push(...plan.reasons);
      if (plan.write) writes.push(plan.write);
    }
    try {
      if (writes.length > 0) await store.writeTraces(writes);
    } catch (error) {
      if (isBacktrackError(error, "trace_conflict") && attempt < CONFLICT_RETRIES) {
        for (const write of writes) for (const run of write.runs) written.add(run.runId);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(100, 2 ** attempt)));
        continue;
      }
      throw error;
    }
    result.accepted = accepted;
    result.rejected += rejected;
    result.duplicates = kept.length - accepted - rejected;
    result.runIds = [...new Set(writes.flatMap((write) => write.runs.map((run) => run.runId)))];
    result.message = [...reasons, ...planReasons].join("; ");
    return result;
  }
}

/** Run ids a batch may write to: the ones its spans name, and their traces' ids. */
function candidateRunIds(byTrace: Map<string, OtelSpan[]>): string[] {
  const ids = new Set<string>();
  for (const [traceId, spans] of byTrace) {
    ids.add(traceId);
    for (const span of spans) {
      const id = runIdAttribute(span);
      if (id) ids.add(id);
    }
  }
  return [...ids];
}
