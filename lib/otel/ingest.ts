/**
 * OTLP ingest: an ExportTraceServiceRequest's spans into journal runs (origin `otel`). Spans are
 * grouped by trace; each trace is read from the store's staging, planned (materialise.ts) and
 * written in one all-or-nothing write per request. A write that lost a race with another writer
 * of the same trace (TraceConflictError) is read again and retried, so concurrent exporters never
 * double a span or a seq. Decoding (prepare.ts) needs no store: the server runs it in a pool worker
 * (lib/pool/otlp.ts), a library use in process. Framework-free: the route and the tests call it with bytes.
 */
import { BadInputError, isBacktrackError } from "../journal/errors";
import { isTraceStaging, type Journal, type TraceRunState, type TraceWrite } from "../journal/ports";
import { planTrace } from "./materialise";
import { prepareOtlp, type PreparedSpans, type RawOtlpBody } from "./prepare";
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

/** Decodes a raw body into the spans ingest keeps: prepareOtlp in process, or a pool worker's (lib/pool/otlp.ts). */
export type OtlpPreparer = (request: RawOtlpBody) => Promise<PreparedSpans>;

export interface IngestOptions {
  /** Where the body is decoded; default in process (a library use has no pool). */
  prepare?: OtlpPreparer;
}

/** Decodes and ingests one OTLP/HTTP request body. */
export async function ingestOtlp(store: Journal, request: IngestRequest, options: IngestOptions = {}): Promise<IngestResult> {
  if (!isTraceStaging(store)) throw new BadInputError("this store cannot ingest OTLP traces");
  const prepared = options.prepare ? await options.prepare(request) : prepareOtlp(request);
  return ingestPrepared(store, prepared);
}

/** Ingests a decoded body's spans (see ingestOtlp): plans each trace against the store's staging and writes once. */
export async function ingestPrepared(store: Journal, prepared: PreparedSpans): Promise<IngestResult> {
  if (!isTraceStaging(store)) throw new BadInputError("this store cannot ingest OTLP traces");
  const { reasons, dropped, kept } = prepared;
  const byTrace = new Map<string, OtelSpan[]>(prepared.traces);
  const result: IngestResult = { accepted: 0, rejected: prepared.rejected, dropped, duplicates: 0, message: "", runIds: [] };
  // Run ids a lost race showed this batch writes to (sub-agent runs): read with the next try.
  const written = new Set<string>();
  for (let attempt = 0; ; attempt += 1) {
    const { traces, runs } = await store.loadTraces([...byTrace.keys()], [...prepared.candidateRunIds, ...written]);
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
    result.duplicates = kept - accepted - rejected;
    result.runIds = [...new Set(writes.flatMap((write) => write.runs.map((run) => run.runId)))];
    result.message = [...reasons, ...planReasons].join("; ");
    return result;
  }
}
