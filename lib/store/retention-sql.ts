/**
 * PostgresStore's retention statements (lib/retention drives them). A batch is one statement: it
 * picks up to `limit` root runs older than the cutoff, after a keyset position (started_at,
 * run_id) ascending along runs_started_idx, and deletes their trees with import-sql.ts's run
 * deletion (sub-agent runs, records, leases, timers). Each batch holds its row locks only for
 * itself, so inspectors keep serving between and during batches.
 *
 * Invariants:
 * - a run is old when both its start and its last activity (updated_at) are before the cutoff:
 *   a long-lived run that is still being written is not old;
 * - candidates are roots (no parent, or a parent that is gone); a tree goes whole with its root;
 * - a run matching KEPT_RUN_SQL is never a candidate unless the caller includes kept runs;
 * - the candidates' conditions are checked in the deleting statement itself, so a run that woke
 *   up (or became a fork source) after a dry run is not deleted.
 */
import { deleteTreesSql } from "./import-sql";
import type { SqlClient } from "./sql-client";

/**
 * THE KEPT PREDICATE (one place; extend it here): runs that prune keeps unless told to include
 * them: sources of forks (a run whose `forked_from` names it, or an older fork whose run:start
 * header names it as `forkedFrom.runId`) and runs pinned into a regression suite (`suite_pins`).
 * `run` is the alias of the runs row being judged.
 */
export function keptRunSql(run: string): string {
  return `(EXISTS (SELECT 1 FROM suite_pins pin WHERE pin.run_id = ${run}.run_id)
    OR EXISTS (SELECT 1 FROM runs forked WHERE forked.forked_from = ${run}.run_id)
    OR EXISTS (SELECT 1 FROM records fork WHERE fork.name = 'run:start' AND ((fork.payload -> 'forkedFrom') ->> 'runId') = ${run}.run_id))`;
}

// The order is runs_started_idx (DESC NULLS LAST) read backwards, exactly: ASC NULLS LAST would
// not match it, and the planner would sort the whole table (and JIT-compile that plan) per batch.
// $1 cutoff, $2/$3 keyset position (started_at, run_id), $4 statuses as a JSON array or null,
// $5 agent or null, $6 include kept runs, $7 batch size.
const ROOTS = `
roots AS (
  SELECT r.run_id, r.started_at FROM runs r
  WHERE r.started_at < $1::timestamptz AND r.updated_at < $1::timestamptz
    AND (r.started_at, r.run_id) > ($2::timestamptz, $3::text)
    AND (r.parent_run_id IS NULL OR NOT EXISTS (SELECT 1 FROM runs p WHERE p.run_id = r.parent_run_id))
    AND ($4::text IS NULL OR r.status IN (SELECT json_array_elements_text($4::text::json)))
    AND ($5::text IS NULL OR r.agent = $5::text)
    AND ($6::boolean OR NOT ${keptRunSql("r")})
  ORDER BY r.started_at ASC NULLS FIRST, r.run_id ASC NULLS FIRST
  LIMIT $7::int
), last_root AS (
  SELECT run_id, started_at FROM roots ORDER BY started_at DESC, run_id DESC LIMIT 1
)`;

const PRUNE_SQL = `WITH RECURSIVE ${ROOTS}, ${deleteTreesSql("SELECT run_id FROM roots")}
SELECT (SELECT json_agg(run_id ORDER BY run_id) FROM gone_runs)::text AS runs,
       (SELECT count(*) FROM gone_records)::int AS records,
       (SELECT count(*) FROM gone_leases)::int AS leases,
       (SELECT run_id FROM last_root) AS last_run_id,
       (SELECT started_at FROM last_root) AS last_started_at`;

const DRY_RUN_SQL = `WITH RECURSIVE ${ROOTS}, tree AS (
  SELECT run_id FROM roots
  UNION
  SELECT c.run_id FROM runs c JOIN tree t ON c.parent_run_id = t.run_id
)
SELECT (SELECT json_agg(run_id ORDER BY run_id) FROM tree)::text AS runs,
       (SELECT count(*) FROM records WHERE run_id IN (SELECT run_id FROM tree))::int AS records,
       (SELECT count(*) FROM leases WHERE run_id IN (SELECT run_id FROM tree))::int AS leases,
       (SELECT run_id FROM last_root) AS last_run_id,
       (SELECT started_at FROM last_root) AS last_started_at`;

// Sessions go by last activity, in primary-key order: $1 cutoff, $2 after this id, $3 batch size.
const OLD_SESSIONS_SQL = `SELECT id FROM sessions WHERE id > $2::text AND updated_at < $1::timestamptz ORDER BY id LIMIT $3::int`;
// The events go in a second statement, as backtrack_delete_session does: its fresh snapshot sees
// events that appends in flight committed while the first waited for their row locks.
const DELETE_SESSIONS_SQL = `DELETE FROM sessions WHERE id IN (SELECT json_array_elements_text($1::text::json)) AND updated_at < $2::timestamptz RETURNING id`;
const DELETE_SESSION_EVENTS_SQL = `DELETE FROM session_events WHERE session_id IN (SELECT json_array_elements_text($1::text::json))`;

/** A start before every run's (postgres.js binds a timestamptz through Date: no "-infinity"). */
const BEFORE_ALL = "0001-01-01T00:00:00.000Z";

export interface RunBatchQuery {
  cutoff: Date;
  after: { startedAt: string; runId: string } | null;
  statuses: readonly string[] | null;
  agent: string | null;
  includeKept: boolean;
  limit: number;
  dryRun: boolean;
}

export interface RunBatch {
  /** Run ids removed (or, in a dry run, that would be), sub-agent runs included. */
  runs: string[];
  records: number;
  leases: number;
  /** Where the next batch starts; null when this batch found no root. */
  next: { startedAt: string; runId: string } | null;
}

interface BatchRow {
  runs: string | null;
  records: number;
  leases: number;
  last_run_id: string | null;
  last_started_at: Date | string | null;
}

export async function pruneRunBatch(client: SqlClient, query: RunBatchQuery): Promise<RunBatch> {
  const params = [
    query.cutoff.toISOString(),
    query.after?.startedAt ?? BEFORE_ALL,
    query.after?.runId ?? "",
    query.statuses ? JSON.stringify(query.statuses) : null,
    query.agent,
    query.includeKept,
    query.limit,
  ];
  const [row] = await client.query<BatchRow>(query.dryRun ? DRY_RUN_SQL : PRUNE_SQL, params);
  const lastStartedAt = row?.last_started_at;
  return {
    runs: row?.runs ? (JSON.parse(row.runs) as string[]) : [],
    records: Number(row?.records ?? 0),
    leases: Number(row?.leases ?? 0),
    // The position keeps the database's microseconds: a Date would round them to milliseconds.
    next: row?.last_run_id && lastStartedAt ? { runId: row.last_run_id, startedAt: typeof lastStartedAt === "string" ? lastStartedAt : lastStartedAt.toISOString() } : null,
  };
}

export interface SessionBatch {
  sessions: string[];
  /** The last id looked at; null when no old session was left. */
  next: string | null;
}

export async function pruneSessionBatch(client: SqlClient, query: { cutoff: Date; after: string; limit: number; dryRun: boolean }): Promise<SessionBatch> {
  const found = await client.query<{ id: string }>(OLD_SESSIONS_SQL, [query.cutoff.toISOString(), query.after, query.limit]);
  const ids = found.map((row) => row.id);
  if (ids.length === 0) return { sessions: [], next: null };
  const next = ids.at(-1) ?? null;
  if (query.dryRun) return { sessions: ids, next };
  const gone = await client.query<{ id: string }>(DELETE_SESSIONS_SQL, [JSON.stringify(ids), query.cutoff.toISOString()]);
  const goneIds = gone.map((row) => row.id);
  if (goneIds.length > 0) await client.query(DELETE_SESSION_EVENTS_SQL, [JSON.stringify(goneIds)]);
  return { sessions: goneIds, next };
}
