/**
 * PostgresStore's all-or-nothing import and its run deletion. Each is single statements only, so
 * that it works the same on a server, on PGlite and through an embedded database's owner process
 * (which runs single statements, never a transaction across calls).
 *
 * Invariants:
 * - an import stages its records in import_staging under its own id, a chunk a statement; no
 *   reader looks there. One statement then creates the runs' summary rows and moves the records:
 *   it commits whole or not at all;
 * - of two imports of one run id, exactly one commit inserts its summary row; the other fails the
 *   runs primary key and its statement rolls back (RunExistsError);
 * - a commit moves exactly the records it staged, or fails: a staging swept away under a live
 *   import cannot commit half a file;
 * - an import cut short (a kill -9) leaves rows only in import_staging; a later import sweeps
 *   stagings that have not grown for STALE_STAGING.
 */
import { randomUUID } from "node:crypto";
import { BacktrackError, RunExistsError, RunNotFoundError } from "../journal/errors";
import type { DeleteResult, ImportBatch, ImportedRun, StagedRecord } from "../journal/ports";
import { JOURNAL_CHANNEL } from "./append-sql";
import type { SqlClient } from "./sql-client";

const UNIQUE_VIOLATION = "23505";
const DIVISION_BY_ZERO = "22012";
/** A staging no import has added to for this long belongs to a dead import. */
const STALE_STAGING = "15 minutes";

const SWEEP_SQL = `
DELETE FROM import_staging WHERE import_id IN (
  SELECT import_id FROM import_staging GROUP BY import_id HAVING max(staged_at) < now() - interval '${STALE_STAGING}'
)`;

const STAGE_SQL = `
INSERT INTO import_staging (import_id, run_id, seq, name, kind, payload)
SELECT $1::text, r.run_id, r.seq, r.name, r.kind, r.payload
FROM json_to_recordset($2::text::json) AS r(run_id text, seq int, name text, kind text, payload json)`;

/**
 * Rows another table takes in the commit's own statement, so that they land with the runs or not at
 * all (a suite import's pins): `statement("$4")` is a data-modifying statement reading parameter $4,
 * which is `value`.
 */
export interface CommitAlso {
  statement: (parameter: string) => string;
  value: string;
}

// The last SELECT divides by zero when fewer records moved than were staged: that error rolls the
// whole statement back (runs included), which is the point.
const commitSql = (also?: CommitAlso) => `
WITH summaries AS (
  SELECT * FROM json_to_recordset($2::text::json) AS s(run_id text, agent text, parent_run_id text, input_text text,
    model_turns int, tool_calls int, input_tokens int, output_tokens int, status text, completed boolean, records int)
), created AS (
  INSERT INTO runs (run_id, agent, parent_run_id, input_text, model_turns, tool_calls, input_tokens, output_tokens, status, completed_at, origin)
  SELECT run_id, agent, parent_run_id, input_text, model_turns, tool_calls, input_tokens, output_tokens, status,
         CASE WHEN completed THEN now() END, 'import'
  FROM summaries
  RETURNING run_id
), moved AS (
  INSERT INTO records (run_id, seq, name, kind, payload)
  SELECT run_id, seq, name, kind, payload FROM import_staging WHERE import_id = $1::text
  RETURNING 1
), cleared AS (
  DELETE FROM import_staging WHERE import_id = $1::text RETURNING 1
),${also ? ` also AS (${also.statement("$4")} RETURNING 1),` : ""} notified AS (
  SELECT pg_notify('${JOURNAL_CHANNEL}', json_build_array(run_id, records - 1, 'import', status)::text) FROM summaries
)
SELECT 1 / (CASE WHEN (SELECT count(*) FROM moved) = $3::int THEN 1 ELSE 0 END) AS committed,
       (SELECT count(*) FROM notified) AS notified, (SELECT count(*) FROM cleared) AS cleared`;

const DISCARD_SQL = `DELETE FROM import_staging WHERE import_id = $1::text`;

/**
 * The CTEs that delete the trees of the runs `roots` selects (a SELECT of run ids): the runs, their
 * sub-agent runs, records, leases and timers, as gone_runs, gone_records, gone_leases, gone_timers.
 * Used by deleteRun here and by prune's batches (retention-sql.ts); the caller writes WITH RECURSIVE.
 */
export function deleteTreesSql(roots: string): string {
  // UNION (not UNION ALL) stops at a run already in the tree, so a parent cycle cannot loop.
  return `tree AS (
  ${roots}
  UNION
  SELECT r.run_id FROM runs r JOIN tree t ON r.parent_run_id = t.run_id
), gone_records AS (
  DELETE FROM records WHERE run_id IN (SELECT run_id FROM tree) RETURNING 1
), gone_leases AS (
  DELETE FROM leases WHERE run_id IN (SELECT run_id FROM tree) RETURNING 1
), gone_timers AS (
  DELETE FROM timers WHERE run_id IN (SELECT run_id FROM tree) OR root_run_id IN (SELECT run_id FROM tree) RETURNING 1
), gone_runs AS (
  DELETE FROM runs WHERE run_id IN (SELECT run_id FROM tree) RETURNING run_id
)`;
}

const DELETE_SQL = `
WITH RECURSIVE ${deleteTreesSql("SELECT run_id FROM runs WHERE run_id = $1::text")}
SELECT (SELECT json_agg(run_id ORDER BY run_id) FROM gone_runs)::text AS runs,
       (SELECT count(*) FROM gone_records)::int AS records,
       (SELECT count(*) FROM gone_leases)::int AS leases,
       (SELECT count(*) FROM gone_timers)::int AS timers`;

/** A commit that found fewer staged records than it wrote: a sweep took them. Nothing was imported. */
export class ImportInterruptedError extends BacktrackError {
  constructor(options?: { cause?: unknown }) {
    super("import_interrupted", "the import's staged records went missing before it finished (it was idle too long); nothing was imported", options);
  }
}

export async function beginImport(client: SqlClient, onCommitted: (runIds: string[]) => void, also?: CommitAlso): Promise<ImportBatch> {
  await client.query(SWEEP_SQL);
  const importId = randomUUID();
  let staged = 0;
  return {
    async stage(records: readonly StagedRecord[]) {
      if (records.length === 0) return;
      const rows = records.map((record) => ({ run_id: record.runId, seq: record.seq, name: record.name, kind: record.kind, payload: record.payload ?? null }));
      await client.query(STAGE_SQL, [importId, JSON.stringify(rows)]);
      staged += records.length;
    },
    async commit(runs: readonly ImportedRun[]) {
      const summaries = runs.map((run) => ({
        run_id: run.runId,
        agent: run.agent,
        parent_run_id: run.parentRunId,
        input_text: run.inputText,
        model_turns: run.modelTurns,
        tool_calls: run.toolCalls,
        input_tokens: run.inputTokens,
        output_tokens: run.outputTokens,
        status: run.status,
        completed: run.completed,
        records: run.records,
      }));
      try {
        await client.query(commitSql(also), [importId, JSON.stringify(summaries), staged, ...(also ? [also.value] : [])]);
      } catch (error) {
        await client.query(DISCARD_SQL, [importId]).catch(() => undefined);
        throw await commitError(client, runs, error);
      }
      onCommitted(runs.map((run) => run.runId));
    },
    async discard() {
      await client.query(DISCARD_SQL, [importId]);
    },
  };
}

/** Why a commit failed, as a typed error where it is the import's fault. */
async function commitError(client: SqlClient, runs: readonly ImportedRun[], error: unknown): Promise<unknown> {
  const code = (error as { code?: string }).code;
  if (code === DIVISION_BY_ZERO) return new ImportInterruptedError({ cause: error });
  if (code !== UNIQUE_VIOLATION) return error;
  const ids = runs.map((run) => run.runId);
  const rows = await client.query<{ run_id: string }>(`SELECT run_id FROM runs WHERE run_id IN (SELECT json_array_elements_text($1::text::json)) ORDER BY run_id LIMIT 1`, [
    JSON.stringify(ids),
  ]);
  return new RunExistsError(rows[0]?.run_id ?? ids[0] ?? "");
}

export async function deleteRun(client: SqlClient, runId: string): Promise<DeleteResult & { timers: number }> {
  const rows = await client.query<{ runs: string | null; records: number; leases: number; timers: number }>(DELETE_SQL, [runId]);
  const row = rows[0];
  const runs = row?.runs ? (JSON.parse(row.runs) as string[]) : [];
  if (runs.length === 0) throw new RunNotFoundError(runId);
  return { runs, records: Number(row?.records ?? 0), leases: Number(row?.leases ?? 0), timers: Number(row?.timers ?? 0) };
}
