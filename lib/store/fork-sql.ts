/**
 * PostgresStore's fork: one statement creates the fork's summary row, writes its header, copies
 * the source's records [1, at) and its sub-agent runs started before `at` with `INSERT … SELECT`
 * on the server (they never pass through this process) and writes the edited record at `at`.
 * Invariants:
 * - all or nothing: it is one statement, so a failure (a payload refused, a unique violation)
 *   leaves no row; it works the same on a server, on PGlite and through an embedded owner;
 * - the runs row is created with ON CONFLICT DO NOTHING, and every insert reads from `created`:
 *   when the id exists, nothing is written and `created` is false;
 * - the summary's counts are the source's minus its records from `at` on (a short tail when a
 *   long run is forked late), plus the edited record's, so no copied payload is parsed for them;
 * - the sub-agent runs started before `at` are copied whole with their summary rows, renamed,
 *   and the payloads that name runs are rewritten, by lib/journal/fork-copy.ts's rules (a
 *   leftover row under a copied run's id fails the statement: nothing is written).
 */
import type { ForkCopy } from "../journal/ports";
import { summaryDelta } from "../journal/summary";
import { JOURNAL_CHANNEL } from "./append-sql";
import { tokenCount } from "./rows";
import type { SqlClient } from "./sql-client";

/** A run id as the fork renames it (fork-copy.ts forkRunId): the source's prefix swapped for the fork's. */
const renamed = (id: string) =>
  `CASE WHEN ${id} = $1::text THEN $2::text WHEN starts_with(${id}, $1::text || '.') THEN $2::text || substr(${id}, length($1::text) + 1) ELSE ${id} END`;

/** The payload of record `r` with `key` replaced by `value` (over `e.value`), its keys kept in their order. */
const withKey = (r: string, key: string, value: string) =>
  `(SELECT json_object_agg(e.key, CASE WHEN e.key = '${key}' THEN ${value} ELSE e.value END ORDER BY e.n) FROM json_each(${r}.payload) WITH ORDINALITY AS e(key, value, n))`;

const renamedIds = `coalesce((SELECT json_agg(CASE WHEN json_typeof(c.value) = 'string' THEN to_json(${renamed("(c.value #>> '{}')")}) ELSE c.value END ORDER BY c.n) FROM json_array_elements(e.value) WITH ORDINALITY AS c(value, n)), '[]'::json)`;

/** fork-copy.ts renamedPayload in SQL: only where the journal names runs; anything else is the source's text. */
const renamedPayload = (r: string) => `CASE
  WHEN ${r}.kind = 'signal' AND ${r}.payload->>'type' = 'subagent' AND json_typeof(${r}.payload->'childRunId') = 'string'
    THEN ${withKey(r, "childRunId", `to_json(${renamed("(e.value #>> '{}')")})`)}
  WHEN ${r}.kind = 'tool_result' AND strpos(${r}.payload::text, '"childRunIds"') > 0 AND json_typeof(${r}.payload->'childRunIds') = 'array'
    THEN ${withKey(r, "childRunIds", renamedIds)}
  WHEN ${r}.kind = 'header' AND json_typeof(${r}.payload->'parentRunId') = 'string'
    THEN ${withKey(r, "parentRunId", `to_json(${renamed("(e.value #>> '{}')")})`)}
  ELSE ${r}.payload END`;

/** A `subagent` signal of record `r` naming one of the source's own sub-agent runs. */
const startsSubAgent = (r: string) => `${r}.kind = 'signal' AND ${r}.payload->>'type' = 'subagent' AND starts_with(${r}.payload->>'childRunId', $1::text || '.')`;

const FORK_SQL = `
WITH RECURSIVE source AS (
  SELECT * FROM runs WHERE run_id = $1::text
), tail AS (
  SELECT count(*) FILTER (WHERE kind = 'model') AS model_turns, count(*) FILTER (WHERE kind = 'tool_result') AS tool_calls,
         coalesce(sum(${tokenCount("inputTokens")}), 0) AS input_tokens, coalesce(sum(${tokenCount("outputTokens")}), 0) AS output_tokens
  FROM records WHERE run_id = $1::text AND seq >= $3::int
), created AS (
  INSERT INTO runs (run_id, agent, parent_run_id, input_text, model_turns, tool_calls, input_tokens, output_tokens, status, origin, forked_from, forked_at, completed_at)
  SELECT $2::text, source.agent, source.parent_run_id, source.input_text,
         source.model_turns - tail.model_turns + $6::int, source.tool_calls - tail.tool_calls + $7::int,
         source.input_tokens - tail.input_tokens + $8::int, source.output_tokens - tail.output_tokens + $9::int,
         coalesce($13::text, 'running'), coalesce($12::text, 'fork'), $1::text, $3::int,
         CASE WHEN $13::text = 'complete' THEN now() END
  FROM source, tail
  ON CONFLICT (run_id) DO NOTHING
  RETURNING run_id
), tree (run_id) AS (
  -- The sub-agent runs started before the fork step, and theirs (fork-copy.ts).
  SELECT r.payload->>'childRunId' FROM records r WHERE r.run_id = $1::text AND r.seq >= 1 AND r.seq < $3::int AND ${startsSubAgent("r")}
  UNION
  SELECT r.payload->>'childRunId' FROM tree t JOIN records r ON r.run_id = t.run_id WHERE ${startsSubAgent("r")}
), sub_runs AS (
  INSERT INTO runs (run_id, agent, parent_run_id, status, pause, error, input_text, model_turns, tool_calls, input_tokens, output_tokens, started_at, updated_at, completed_at, origin)
  SELECT ${renamed("s.run_id")}, s.agent, ${renamed("s.parent_run_id")}, s.status, s.pause, s.error, s.input_text, s.model_turns, s.tool_calls, s.input_tokens, s.output_tokens,
         s.started_at, s.updated_at, s.completed_at, 'fork'
  FROM created, runs s WHERE s.run_id IN (SELECT run_id FROM tree)
  RETURNING 1
), sub_records AS (
  INSERT INTO records (run_id, seq, name, kind, payload, created_at)
  SELECT ${renamed("r.run_id")}, r.seq, r.name, r.kind, ${renamedPayload("r")}, r.created_at
  FROM created, records r WHERE r.run_id IN (SELECT run_id FROM tree)
  RETURNING 1
), header AS (
  INSERT INTO records (run_id, seq, name, kind, payload) SELECT run_id, 0, 'run:start', 'header', $4::text::json FROM created RETURNING 1
), copied AS (
  INSERT INTO records (run_id, seq, name, kind, payload, created_at)
  SELECT created.run_id, r.seq, r.name, r.kind, ${renamedPayload("r")}, r.created_at
  FROM created, records r WHERE r.run_id = $1::text AND r.seq >= 1 AND r.seq < $3::int
  RETURNING 1
), edited AS (
  INSERT INTO records (run_id, seq, name, kind, payload)
  SELECT run_id, $3::int, $10::text, $11::text, $5::text::json FROM created WHERE $10::text IS NOT NULL
  RETURNING 1
), notified AS (
  SELECT pg_notify('${JOURNAL_CHANNEL}', json_build_array(run_id, $3::int - CASE WHEN $10::text IS NULL THEN 1 ELSE 0 END, 'fork', coalesce($13::text, 'running'))::text) FROM created
)
SELECT (SELECT count(*) FROM created)::int AS created, (SELECT count(*) FROM header)::int AS header, (SELECT count(*) FROM copied)::int AS copied,
       (SELECT count(*) FROM edited)::int AS edited, (SELECT count(*) FROM notified)::int AS notified,
       (SELECT count(*) FROM sub_runs)::int AS sub_runs, (SELECT count(*) FROM sub_records)::int AS sub_records`;

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
    copy.origin ?? null,
    copy.status ?? null,
  ]);
  return { created: Number(rows[0]?.created ?? 0) === 1 };
}
