/**
 * SqlSuiteStore: the SuiteStore on PostgreSQL (a server or PGlite) over the SqlClient port. Every
 * method is one statement, so it runs the same through an embedded database's owner process.
 * Parameters are cast from text (`$1::text`): PostgreSQL refuses one parameter deduced as two types.
 */
import { iso } from "../store/rows";
import type { SqlClient } from "../store/sql-client";
import type { NewBatch, NewPin, ResultEntry, SuiteStore } from "./store";
import { emptyCounts, type Batch, type BatchResult, type BatchStatus, type Pin, type ResultStatus, type ResultUpdate, type SuiteSummary } from "./types";

type Time = Date | string;

interface PinRow {
  suite: string;
  run_id: string;
  pinned_by: string;
  pinned_at: Time;
  note: string | null;
}

interface BatchRow {
  batch_id: string;
  suite: string;
  model: string;
  strip_memory: boolean;
  scorer: string;
  status: BatchStatus;
  total: number;
  error: string | null;
  started_at: Time;
  finished_at: Time | null;
}

interface ResultRow {
  batch_id: string;
  run_id: string;
  position: number;
  status: ResultStatus;
  replay_run_id: string | null;
  divergent_at: number | null;
  divergence: string | null;
  reason: string | null;
  score: number | null;
  finished_at: Time | null;
}

const toPin = (row: PinRow): Pin => ({ suite: row.suite, runId: row.run_id, pinnedBy: row.pinned_by, pinnedAt: iso(row.pinned_at), note: row.note });

function toBatch(row: BatchRow): Batch {
  return {
    ...{ batchId: row.batch_id, suite: row.suite, model: row.model, stripMemory: row.strip_memory, scorer: row.scorer, status: row.status },
    ...{ total: Number(row.total), error: row.error, startedAt: iso(row.started_at), finishedAt: iso(row.finished_at) },
  };
}

function toResult(row: ResultRow): BatchResult {
  return {
    ...{ batchId: row.batch_id, runId: row.run_id, position: Number(row.position), status: row.status, replayRunId: row.replay_run_id },
    ...{ divergentAt: row.divergent_at === null ? null : Number(row.divergent_at), divergence: row.divergence, reason: row.reason },
    ...{ score: row.score === null ? null : Number(row.score), finishedAt: iso(row.finished_at) },
  };
}

const BATCH_COLUMNS = "batch_id, suite, model, strip_memory, scorer, status, total, error, started_at, finished_at";
/** The batch columns but the suite, qualified by `alias` (a join that has its own suite column). */
const batchColumns = (alias: string) =>
  BATCH_COLUMNS.replace("suite, ", "")
    .split(", ")
    .map((column) => `${alias}.${column}`)
    .join(", ");

/** Inserts pins from a JSON array; used by pin() and, inside the import's commit, by a suite import. */
export const INSERT_PINS_SQL = (json: string) => `
INSERT INTO suite_pins (suite, run_id, pinned_by, pinned_at, note)
SELECT p.suite, p.run_id, p.pinned_by, COALESCE(p.pinned_at, now()), p.note
FROM json_to_recordset(${json}::text::json) AS p(suite text, run_id text, pinned_by text, pinned_at timestamptz, note text)
ON CONFLICT (suite, run_id) DO NOTHING`;

const CREATE_BATCH_SQL = `
WITH batch AS (
  INSERT INTO suite_batches (batch_id, suite, model, strip_memory, scorer, total, started_at)
  SELECT $1::text, $2::text, $3::text, $4::boolean, $5::text, json_array_length($6::text::json),
         GREATEST(now(), (SELECT max(started_at) + interval '1 millisecond' FROM suite_batches WHERE suite = $2::text))
  RETURNING ${BATCH_COLUMNS}
), results AS (
  INSERT INTO suite_batch_results (batch_id, run_id, position)
  SELECT $1::text, r.value, (r.ordinality - 1)::int FROM json_array_elements_text($6::text::json) WITH ORDINALITY AS r(value, ordinality)
)
SELECT * FROM batch`;

const SUITES_SQL = `
WITH names AS (SELECT suite FROM suite_pins UNION SELECT suite FROM suite_batches)
SELECT n.suite, (SELECT count(*) FROM suite_pins p WHERE p.suite = n.suite)::int AS pins, ${batchColumns("b")},
       (SELECT json_object_agg(s.status, s.n) FROM (SELECT status, count(*)::int AS n FROM suite_batch_results r WHERE r.batch_id = b.batch_id GROUP BY status) s)::text AS counts
FROM names n
LEFT JOIN LATERAL (SELECT ${BATCH_COLUMNS} FROM suite_batches WHERE suite = n.suite ORDER BY started_at DESC, batch_id DESC LIMIT 1) b ON true
ORDER BY n.suite`;

/** Many results of one batch in one statement (all or none); a result already out of pending stays as it is. */
const SET_RESULTS_SQL = `
UPDATE suite_batch_results AS t SET status = u.status, replay_run_id = u.replay_run_id, divergent_at = u.divergent_at, divergence = u.divergence,
       reason = u.reason, score = u.score, finished_at = now()
FROM json_to_recordset($2::text::json)
     AS u(run_id text, status text, replay_run_id text, divergent_at int, divergence text, reason text, score double precision)
WHERE t.batch_id = $1::text AND t.run_id = u.run_id AND t.status = 'pending'`;

export class SqlSuiteStore implements SuiteStore {
  constructor(private readonly client: SqlClient) {}

  async pin(pin: NewPin): Promise<{ created: boolean; pin: Pin }> {
    const row = { suite: pin.suite, run_id: pin.runId, pinned_by: pin.pinnedBy, pinned_at: pin.pinnedAt ?? null, note: pin.note ?? null };
    const created = await this.client.query(`${INSERT_PINS_SQL("$1")} RETURNING 1`, [JSON.stringify([row])]);
    const rows = await this.client.query<PinRow>("SELECT * FROM suite_pins WHERE suite = $1::text AND run_id = $2::text", [pin.suite, pin.runId]);
    return { created: created.length > 0, pin: toPin(rows[0] as PinRow) };
  }

  async pinMany(suite: string, runIds: readonly string[], pinnedBy: string): Promise<number> {
    const rows = runIds.map((runId) => ({ suite, run_id: runId, pinned_by: pinnedBy }));
    const created = await this.client.query(`${INSERT_PINS_SQL("$1")} RETURNING 1`, [JSON.stringify(rows)]);
    return created.length;
  }

  async unpin(suite: string, runId: string): Promise<boolean> {
    const rows = await this.client.query("DELETE FROM suite_pins WHERE suite = $1::text AND run_id = $2::text RETURNING 1", [suite, runId]);
    return rows.length > 0;
  }

  async pins(suite: string): Promise<Pin[]> {
    const rows = await this.client.query<PinRow>("SELECT * FROM suite_pins WHERE suite = $1::text ORDER BY pinned_at, run_id", [suite]);
    return rows.map(toPin);
  }

  async pinsOf(runId: string): Promise<Pin[]> {
    const rows = await this.client.query<PinRow>("SELECT * FROM suite_pins WHERE run_id = $1::text ORDER BY suite", [runId]);
    return rows.map(toPin);
  }

  async suites(): Promise<SuiteSummary[]> {
    const rows = await this.client.query<BatchRow & { pins: number; counts: string | null }>(SUITES_SQL);
    return rows.map((row) => ({
      suite: row.suite,
      pins: Number(row.pins),
      lastBatch: row.batch_id === null ? null : { ...toBatch(row), counts: { ...emptyCounts(), ...(row.counts ? (JSON.parse(row.counts) as object) : {}) } },
    }));
  }

  async createBatch(batch: NewBatch, runIds: readonly string[]): Promise<Batch> {
    const rows = await this.client.query<BatchRow>(CREATE_BATCH_SQL, [batch.batchId, batch.suite, batch.model, batch.stripMemory, batch.scorer, JSON.stringify(runIds)]);
    return toBatch(rows[0] as BatchRow);
  }

  async setResult(batchId: string, runId: string, update: ResultUpdate): Promise<void> {
    await this.client.query(
      `UPDATE suite_batch_results SET status = $3::text, replay_run_id = $4::text, divergent_at = $5::int, divergence = $6::text, reason = $7::text,
         score = $8::double precision, finished_at = now()
       WHERE batch_id = $1::text AND run_id = $2::text AND status = 'pending'`,
      [batchId, runId, update.status, update.replayRunId, update.divergentAt, update.divergence, update.reason, update.score],
    );
  }

  async setResults(batchId: string, results: readonly ResultEntry[]): Promise<void> {
    if (results.length === 0) return;
    const rows = results.map(({ runId, update }) => ({
      ...{ run_id: runId, status: update.status, replay_run_id: update.replayRunId, divergent_at: update.divergentAt },
      ...{ divergence: update.divergence, reason: update.reason, score: update.score },
    }));
    await this.client.query(SET_RESULTS_SQL, [batchId, JSON.stringify(rows)]);
  }

  async finishBatch(batchId: string, status: Exclude<BatchStatus, "running">, error: string | null = null): Promise<void> {
    await this.client.query("UPDATE suite_batches SET status = $2::text, error = $3::text, finished_at = now() WHERE batch_id = $1::text AND status = 'running'", [
      batchId,
      status,
      error,
    ]);
  }

  async batch(batchId: string): Promise<Batch | undefined> {
    const rows = await this.client.query<BatchRow>(`SELECT ${BATCH_COLUMNS} FROM suite_batches WHERE batch_id = $1::text`, [batchId]);
    return rows[0] && toBatch(rows[0]);
  }

  async results(batchId: string): Promise<BatchResult[]> {
    const rows = await this.client.query<ResultRow>("SELECT * FROM suite_batch_results WHERE batch_id = $1::text ORDER BY position", [batchId]);
    return rows.map(toResult);
  }

  async batches(suite: string, limit = 50): Promise<Batch[]> {
    const rows = await this.client.query<BatchRow>(`SELECT ${BATCH_COLUMNS} FROM suite_batches WHERE suite = $1::text ORDER BY started_at DESC, batch_id DESC LIMIT $2::int`, [
      suite,
      limit,
    ]);
    return rows.map(toBatch);
  }

  async previousBatch(batchId: string): Promise<Batch | undefined> {
    const rows = await this.client.query<BatchRow>(
      `SELECT p.suite, ${batchColumns("p")} FROM suite_batches p, (SELECT suite, started_at, batch_id AS id FROM suite_batches WHERE batch_id = $1::text) c
       WHERE p.suite = c.suite AND (p.started_at, p.batch_id) < (c.started_at, c.id) ORDER BY p.started_at DESC, p.batch_id DESC LIMIT 1`,
      [batchId],
    );
    return rows[0] && toBatch(rows[0]);
  }
}
