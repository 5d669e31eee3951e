/**
 * PostgresStore's staging for OTLP ingest (the TraceStaging port): single statements only, so it
 * works alike on a server, on PGlite and through an embedded database's owner process.
 *
 * Invariants:
 * - a write is one statement: spans, records, summary rows, the traces' versions and the
 *   notifications commit together or not at all;
 * - a trace's version moves by one per write; a write made from an older read updates fewer
 *   traces than it names, and a division by zero rolls the whole statement back (conflict);
 * - a trace's staged spans are one JSON list in its row, replaced whole by each write (the writer
 *   read it at the version it names, so nothing another writer added is lost);
 * - a record seq or a run created twice fails its primary key (conflict, never a double);
 * - a write never touches a run whose origin is not `otel`: such an update matches no row and the
 *   same check rolls the statement back.
 */
import { TraceConflictError } from "../journal/errors";
import type { StagedSpan, StagedTrace, TraceRunState, TraceWrite } from "../journal/ports";
import type { RunOrigin, RunStatus } from "../journal/types";
import { JOURNAL_CHANNEL } from "./append-sql";
import type { SqlClient } from "./sql-client";

const UNIQUE_VIOLATION = "23505";
const DIVISION_BY_ZERO = "22012";

const LOAD_SQL = `
WITH wanted AS (SELECT json_array_elements_text($1::text::json) AS trace_id),
traces AS (
  SELECT w.trace_id, COALESCE(o.version, 0) AS version, COALESCE(o.run_ids, '[]'::json) AS run_ids,
    o.spans
  FROM wanted w LEFT JOIN otel_traces o ON o.trace_id = w.trace_id
), run_ids AS (
  SELECT json_array_elements_text($2::text::json) AS run_id
  UNION SELECT json_array_elements_text(run_ids) FROM traces
)
SELECT (SELECT json_agg(json_build_array(trace_id, version, run_ids, spans)) FROM traces)::text AS traces,
  (SELECT json_agg(json_build_array(r.run_id, r.origin, r.status, r.error,
     COALESCE((SELECT max(seq) FROM records WHERE records.run_id = r.run_id), -1)))
   FROM runs r WHERE r.run_id IN (SELECT run_id FROM run_ids))::text AS runs`;

const WRITE_SQL = `
WITH traces_in AS (
  SELECT * FROM json_to_recordset($1::text::json) AS t(trace_id text, version int, run_ids json, spans json)
), new_traces AS (
  INSERT INTO otel_traces (trace_id, version, run_ids, spans) SELECT trace_id, 1, run_ids, spans FROM traces_in WHERE version = 0 RETURNING 1
), old_traces AS (
  UPDATE otel_traces o SET version = o.version + 1, run_ids = t.run_ids, spans = t.spans, updated_at = now()
  FROM traces_in t WHERE o.trace_id = t.trace_id AND t.version > 0 AND o.version = t.version RETURNING 1
), runs_in AS (
  SELECT * FROM json_to_recordset($2::text::json) AS r(run_id text, "create" boolean, agent text, parent_run_id text, input_text text,
    started_at timestamptz, model_turns int, tool_calls int, input_tokens int, output_tokens int, status text, error text, completed boolean, last_seq int)
), created AS (
  INSERT INTO runs (run_id, agent, parent_run_id, input_text, model_turns, tool_calls, input_tokens, output_tokens, status, error, started_at, completed_at, origin)
  SELECT run_id, agent, parent_run_id, input_text, model_turns, tool_calls, input_tokens, output_tokens, status, error, started_at,
         CASE WHEN completed THEN now() END, 'otel'
  FROM runs_in WHERE "create" RETURNING 1
), updated AS (
  UPDATE runs r SET model_turns = r.model_turns + i.model_turns, tool_calls = r.tool_calls + i.tool_calls,
    input_tokens = r.input_tokens + i.input_tokens, output_tokens = r.output_tokens + i.output_tokens,
    cost_due = r.cost_due OR i.model_turns > 0,
    status = i.status, error = i.error, pause = NULL, updated_at = now(),
    completed_at = CASE WHEN i.completed THEN COALESCE(r.completed_at, now()) ELSE r.completed_at END
  FROM runs_in i WHERE r.run_id = i.run_id AND NOT i."create" AND r.origin = 'otel' RETURNING 1
), records_in AS (
  INSERT INTO records (run_id, seq, name, kind, payload, created_at)
  SELECT run_id, seq, name, kind, payload, created_at
  FROM json_to_recordset($3::text::json) AS x(run_id text, seq int, name text, kind text, payload json, created_at timestamptz)
  RETURNING 1
), notified AS (
  SELECT pg_notify('${JOURNAL_CHANNEL}', json_build_array(run_id, last_seq, 'otel', status)::text) FROM runs_in
)
SELECT 1 / (CASE WHEN (SELECT count(*) FROM new_traces) + (SELECT count(*) FROM old_traces) = $4::int
                  AND (SELECT count(*) FROM updated) = $5::int THEN 1 ELSE 0 END) AS ok,
  (SELECT count(*) FROM records_in) AS records, (SELECT count(*) FROM created) AS created, (SELECT count(*) FROM notified) AS notified`;

type SpanRow = [string, string | null, string, string | null, unknown, unknown];

export async function loadTraces(client: SqlClient, traceIds: readonly string[], runIds: readonly string[]): Promise<{ traces: StagedTrace[]; runs: TraceRunState[] }> {
  const rows = await client.query<{ traces: string | null; runs: string | null }>(LOAD_SQL, [JSON.stringify(traceIds), JSON.stringify(runIds)]);
  const row = rows[0];
  const traces = (JSON.parse(row?.traces ?? "[]") as Array<[string, number, string[], SpanRow[] | null]>).map(([traceId, version, ids, spans]): StagedTrace => ({
    traceId,
    version: Number(version),
    runIds: ids,
    spans: (spans ?? []).map(([spanId, parentSpanId, startNs, runId, note, data]): StagedSpan => ({ traceId, spanId, parentSpanId, startNs, runId, note, data })),
  }));
  const runs = (JSON.parse(row?.runs ?? "[]") as Array<[string, RunOrigin, RunStatus, string | null, number]>).map(([runId, origin, status, error, lastSeq]) => ({
    runId,
    origin,
    status,
    error,
    lastSeq: Number(lastSeq),
  }));
  return { traces, runs };
}

export async function writeTraces(client: SqlClient, writes: readonly TraceWrite[]): Promise<void> {
  const traces = writes.map((write) => ({
    ...{ trace_id: write.traceId, version: write.version, run_ids: write.runIds },
    spans: write.spans.map((span): SpanRow => [span.spanId, span.parentSpanId, span.startNs, span.runId, span.note ?? null, span.data ?? null]),
  }));
  const runs = writes.flatMap((write) =>
    write.runs.map((run) => ({
      ...{ run_id: run.runId, create: run.create, agent: run.agent, parent_run_id: run.parentRunId, input_text: run.inputText, started_at: run.startedAt },
      ...{ model_turns: run.modelTurns, tool_calls: run.toolCalls, input_tokens: run.inputTokens, output_tokens: run.outputTokens },
      ...{ status: run.status, error: run.error, completed: run.completed, last_seq: run.records.at(-1)?.seq ?? -1 },
    })),
  );
  const records = writes.flatMap((write) =>
    write.runs.flatMap((run) =>
      run.records.map((record) => ({ run_id: record.runId, seq: record.seq, name: record.name, kind: record.kind, payload: record.payload ?? null, created_at: record.createdAt })),
    ),
  );
  const updates = runs.filter((run) => !run.create).length;
  try {
    await client.query(WRITE_SQL, [JSON.stringify(traces), JSON.stringify(runs), JSON.stringify(records), traces.length, updates]);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === UNIQUE_VIOLATION || code === DIVISION_BY_ZERO)
      throw new TraceConflictError(
        writes.map((write) => write.traceId),
        { cause: error },
      );
    throw error;
  }
}
