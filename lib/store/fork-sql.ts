/**
 * PostgresStore's fork: one statement creates the fork's summary row, writes its header, copies
 * the source's records [1, at) with `INSERT … SELECT` on the server (they never pass through
 * this process) and writes the edited record at `at`. Invariants:
 * - all or nothing: it is one statement, so a failure (a payload refused, a unique violation)
 *   leaves no row; it works the same on a server, on PGlite and through an embedded owner;
 * - the runs row is created with ON CONFLICT DO NOTHING, and every insert reads from `created`:
 *   when the id exists, nothing is written and `created` is false;
 * - the summary's counts are the source's minus its records from `at` on (a short tail when a
 *   long run is forked late), plus the edited record's, so no copied payload is parsed.
 */
import type { ForkCopy } from "../journal/ports";
import { summaryDelta } from "../journal/summary";
import { JOURNAL_CHANNEL } from "./append-sql";
import type { SqlClient } from "./sql-client";

// A token count as summary.ts reads it: a finite number, rounded, never negative; else 0.
const tokens = (field: string) =>
  `CASE WHEN kind = 'model' AND json_typeof(payload->'usage'->'${field}') = 'number' THEN greatest(0, round((payload->'usage'->>'${field}')::numeric)) ELSE 0 END`;

const FORK_SQL = `
WITH source AS (
  SELECT * FROM runs WHERE run_id = $1::text
), tail AS (
  SELECT count(*) FILTER (WHERE kind = 'model') AS model_turns, count(*) FILTER (WHERE kind = 'tool_result') AS tool_calls,
         coalesce(sum(${tokens("inputTokens")}), 0) AS input_tokens, coalesce(sum(${tokens("outputTokens")}), 0) AS output_tokens
  FROM records WHERE run_id = $1::text AND seq >= $3::int
), created AS (
  INSERT INTO runs (run_id, agent, parent_run_id, input_text, model_turns, tool_calls, input_tokens, output_tokens, status, origin, forked_from, forked_at)
  SELECT $2::text, source.agent, source.parent_run_id, source.input_text,
         source.model_turns - tail.model_turns + $6::int, source.tool_calls - tail.tool_calls + $7::int,
         source.input_tokens - tail.input_tokens + $8::int, source.output_tokens - tail.output_tokens + $9::int,
         'running', 'fork', $1::text, $3::int
  FROM source, tail
  ON CONFLICT (run_id) DO NOTHING
  RETURNING run_id
), header AS (
  INSERT INTO records (run_id, seq, name, kind, payload) SELECT run_id, 0, 'run:start', 'header', $4::text::json FROM created RETURNING 1
), copied AS (
  INSERT INTO records (run_id, seq, name, kind, payload, created_at)
  SELECT created.run_id, r.seq, r.name, r.kind, r.payload, r.created_at
  FROM created, records r WHERE r.run_id = $1::text AND r.seq >= 1 AND r.seq < $3::int
  RETURNING 1
), edited AS (
  INSERT INTO records (run_id, seq, name, kind, payload)
  SELECT run_id, $3::int, $10::text, $11::text, $5::text::json FROM created WHERE $10::text IS NOT NULL
  RETURNING 1
), notified AS (
  SELECT pg_notify('${JOURNAL_CHANNEL}', json_build_array(run_id, $3::int - CASE WHEN $10::text IS NULL THEN 1 ELSE 0 END, 'fork', 'running')::text) FROM created
)
SELECT (SELECT count(*) FROM created)::int AS created, (SELECT count(*) FROM header)::int AS header, (SELECT count(*) FROM copied)::int AS copied,
       (SELECT count(*) FROM edited)::int AS edited, (SELECT count(*) FROM notified)::int AS notified`;

/** Writes the fork (see the header); `created` is false when its id exists. */
export async function copyForFork(client: SqlClient, copy: ForkCopy, texts: { header: string; edited?: string }): Promise<{ created: boolean }> {
  const delta = copy.edited ? summaryDelta({ runId: copy.newRunId, ...copy.edited }) : undefined;
  const rows = await client.query<{ created: number }>(FORK_SQL, [
    copy.sourceRunId,
    copy.newRunId,
    copy.at,
    texts.header,
    texts.edited ?? null,
    delta?.modelTurns ?? 0,
    delta?.toolCalls ?? 0,
    delta?.inputTokens ?? 0,
    delta?.outputTokens ?? 0,
    copy.edited?.name ?? null,
    copy.edited?.kind ?? null,
  ]);
  return { created: Number(rows[0]?.created ?? 0) === 1 };
}
