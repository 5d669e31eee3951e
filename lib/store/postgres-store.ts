/**
 * PostgresStore: the durable Journal on PostgreSQL (a server through postgres.js, or embedded
 * PGlite). Invariants kept by the SQL below:
 * - one append is one statement (one round trip, one commit): it allocates the next seq, inserts
 *   the record, updates the run's summary row and notifies listeners;
 * - the first writer of a name wins: a racing writer inserts nothing and reads the winner's record;
 * - seq is dense per run: it is allocated from the run's summary row under its row lock.
 */
import { and, eq, ilike, isNull, or, sql, type SQL } from "drizzle-orm";
import { JournalBase, type JournalOptions } from "../journal/base";
import { decodeCursor, encodeCursor, pageSize } from "../journal/cursor";
import { summaryDelta } from "../journal/summary";
import type {
  AppendResult,
  HistoryOptions,
  JournalNotification,
  JournalRecord,
  NewRecord,
  PauseState,
  RunPage,
  RunQuery,
  RunStatus,
  RunStatusPatch,
  RunSummary,
} from "../journal/types";
import type { Leaser, Lister, UnfinishedQuery, UnfinishedRun } from "../journal/ports";
import { drizzleOver, type Database } from "./drizzle";
import * as recovery from "./recovery-sql";
import { runs } from "./schema/index";
import type { SqlClient } from "./sql-client";

export const JOURNAL_CHANNEL = "backtrack_journal";
const SEQ_RACE_RETRIES = 5;

// Two statements, each a whole append (allocate the seq, insert the record, keep the summary row,
// notify): one for a run whose summary row exists, one that creates it with the run's first record.
// The next seq comes from the summary row under its row lock, so appenders to one run queue on it
// and seq stays dense without retries. A name recorded before fails the unique (run_id, name) key
// and the whole statement rolls back.
const NOTIFY = (status: string) => `pg_notify('${JOURNAL_CHANNEL}', json_build_array($1::text, ins.seq, $3::text, ${status})::text) AS notified`;

/** The hot path: the run exists. No rows back means it does not (yet). */
export const APPEND_SQL = `
WITH updated AS (
  UPDATE runs AS r SET
    agent = COALESCE(r.agent, $5::text),
    parent_run_id = COALESCE(r.parent_run_id, $6::text),
    input_text = COALESCE(r.input_text, $7::text),
    record_count = r.record_count + 1,
    last_seq = r.last_seq + 1,
    model_turns = r.model_turns + $8::int,
    tool_calls = r.tool_calls + $9::int,
    input_tokens = r.input_tokens + $10::int,
    output_tokens = r.output_tokens + $11::int,
    status = $12::text,
    pause = NULL,
    error = NULL,
    updated_at = now(),
    completed_at = CASE WHEN $13::boolean THEN now() ELSE r.completed_at END
  WHERE r.run_id = $1::text
  RETURNING r.last_seq AS seq, r.status
), ins AS (
  INSERT INTO records (run_id, seq, name, kind, payload)
  SELECT $1::text, updated.seq, $2::text, $3::text, $4::text::json FROM updated
  RETURNING seq, created_at
)
SELECT ins.seq, ins.created_at, ${NOTIFY("updated.status")} FROM ins, updated`;

/** A run's first record (run:start, or any first write): creates the summary row. No rows back
 * means the row exists already (another writer created it first). */
export const APPEND_FIRST_SQL = `
WITH created AS (
  INSERT INTO runs (run_id, agent, parent_run_id, input_text, record_count, last_seq, model_turns,
                    tool_calls, input_tokens, output_tokens, status, completed_at)
  VALUES ($1::text, $5::text, $6::text, $7::text, 1, 0, $8::int, $9::int, $10::int, $11::int, $12::text,
          CASE WHEN $13::boolean THEN now() END)
  ON CONFLICT (run_id) DO NOTHING
  RETURNING last_seq AS seq, status
), ins AS (
  INSERT INTO records (run_id, seq, name, kind, payload)
  SELECT $1::text, created.seq, $2::text, $3::text, $4::text::json FROM created
  RETURNING seq, created_at
)
SELECT ins.seq, ins.created_at, ${NOTIFY("created.status")} FROM ins, created`;

const UNIQUE_VIOLATION = "23505";

const STATUS_SQL = `
WITH updated AS (
  UPDATE runs SET status = $2::text, pause = $3::text::jsonb, error = $4::text, updated_at = now()
  WHERE run_id = $1::text RETURNING run_id
)
SELECT pg_notify('${JOURNAL_CHANNEL}', json_build_array($1::text, -1, 'status', $2::text)::text) FROM updated`;

// Payloads are read as text and parsed here: drivers differ on whether they parse json columns.
const RECORD_COLUMNS = "seq, name, kind, payload::text AS payload, created_at";

interface RecordRow {
  seq: number;
  name: string;
  kind: string;
  payload: string;
  created_at: Date | string;
}

export class PostgresStore extends JournalBase implements Lister, Leaser {
  readonly db: Database;

  constructor(
    readonly client: SqlClient,
    options: JournalOptions = {},
  ) {
    super(options);
    this.db = drizzleOver(client);
  }

  protected async write(record: NewRecord, payloadText: string): Promise<AppendResult> {
    const delta = summaryDelta(record);
    const params = [
      record.runId,
      record.name,
      record.kind,
      payloadText,
      delta.agent,
      delta.parentRunId,
      delta.inputText,
      delta.modelTurns,
      delta.toolCalls,
      delta.inputTokens,
      delta.outputTokens,
      delta.status,
      delta.completed,
    ];
    // A header starts a run: try creating its row first. Anything else: the row usually exists.
    let first = record.kind === "header";
    for (let attempt = 0; attempt < SEQ_RACE_RETRIES; attempt += 1, first = !first) {
      let rows: Array<{ seq: number; created_at: Date | string }>;
      try {
        rows = await this.client.query(first ? APPEND_FIRST_SQL : APPEND_SQL, params, { prepare: true });
      } catch (error) {
        if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
        // The first writer of this name won; hand back its record.
        const existing = await this.readOne(record.runId, record.name);
        if (existing) return { created: false, record: existing };
        throw error;
      }
      const inserted = rows[0];
      if (inserted) {
        return {
          created: true,
          record: {
            runId: record.runId,
            seq: Number(inserted.seq),
            name: record.name,
            kind: record.kind,
            payload: JSON.parse(payloadText),
            createdAt: iso(inserted.created_at),
          },
        };
      }
      // Nothing inserted: the run's row was not there (hot path) or was there already (first path).
    }
    throw new Error(`could not create the run row for "${record.name}" in run "${record.runId}" after ${SEQ_RACE_RETRIES} tries`);
  }

  protected async read(runId: string, options: HistoryOptions): Promise<JournalRecord[]> {
    const rows = await this.client.query<RecordRow>(
      `SELECT ${RECORD_COLUMNS} FROM records WHERE run_id = $1::text AND seq >= $2::int ORDER BY seq LIMIT $3::int`,
      [runId, options.from ?? 0, options.limit ?? null],
      { prepare: true },
    );
    return rows.map((row) => toRecord(runId, row));
  }

  protected async readOne(runId: string, name: string): Promise<JournalRecord | undefined> {
    const rows = await this.client.query<RecordRow>(
      `SELECT ${RECORD_COLUMNS} FROM records WHERE run_id = $1::text AND name = $2::text`,
      [runId, name],
      { prepare: true },
    );
    return rows[0] && toRecord(runId, rows[0]);
  }

  async run(runId: string): Promise<RunSummary | undefined> {
    const rows = await this.db.select().from(runs).where(eq(runs.runId, runId));
    return rows[0] && toSummary(rows[0]);
  }

  async runs(query: RunQuery = {}): Promise<RunPage> {
    const limit = pageSize(query.limit);
    const rows = await this.runsQuery(query, limit + 1);
    const page = rows.slice(0, limit).map(toSummary);
    const last = page.at(-1);
    return { runs: page, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
  }

  /** The runs list's statement (exposed so that tests can check its plan). */
  runsQuery(query: RunQuery, limit: number) {
    const conditions: SQL[] = [];
    if (query.status) conditions.push(eq(runs.status, query.status));
    if (query.agent) conditions.push(eq(runs.agent, query.agent));
    if (query.parentRunId === null) conditions.push(isNull(runs.parentRunId));
    else if (query.parentRunId !== undefined) conditions.push(eq(runs.parentRunId, query.parentRunId));
    if (query.search) {
      const pattern = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const match = or(ilike(runs.runId, pattern), ilike(runs.inputText, pattern));
      if (match) conditions.push(match);
    }
    if (query.cursor) {
      const after = decodeCursor(query.cursor);
      conditions.push(sql`(${runs.startedAt}, ${runs.runId}) < (${after.startedAt}::timestamptz, ${after.runId}::text)`);
    }
    // "DESC NULLS LAST", as the indexes are built (drizzle's .desc()): a plain DESC means NULLS FIRST,
    // which no index matches, and the list then sorts every run (both columns are NOT NULL anyway).
    return this.db
      .select()
      .from(runs)
      .where(and(...conditions))
      .orderBy(sql`${runs.startedAt} DESC NULLS LAST`, sql`${runs.runId} DESC NULLS LAST`)
      .limit(limit);
  }

  protected async writeStatus(runId: string, patch: RunStatusPatch): Promise<void> {
    await this.client.query(STATUS_SQL, [runId, patch.status, patch.pause ? JSON.stringify(patch.pause) : null, patch.error ?? null]);
  }

  unfinishedRuns(query?: UnfinishedQuery): Promise<UnfinishedRun[]> {
    return recovery.unfinishedRuns(this.client, query);
  }

  acquireLease(runId: string, holder: string, ttlMs: number): Promise<boolean> {
    return recovery.acquireLease(this.client, runId, holder, ttlMs);
  }

  renewLease(runId: string, holder: string, ttlMs: number): Promise<boolean> {
    return recovery.renewLease(this.client, runId, holder, ttlMs);
  }

  releaseLease(runId: string, holder: string): Promise<void> {
    return recovery.releaseLease(this.client, runId, holder);
  }

  /** The leases on these runs, expired ones included (the recovery board shows holder and expiry). */
  leases(runIds: readonly string[]): Promise<recovery.LeaseRow[]> {
    return recovery.leasesOf(this.client, runIds);
  }

  async subscribe(listener: (note: JournalNotification) => void): Promise<() => Promise<void>> {
    return this.client.listen(JOURNAL_CHANNEL, (payload) => {
      const note = parseNotification(payload);
      if (note) listener(note);
    });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

export function parseNotification(payload: string): JournalNotification | undefined {
  try {
    const [runId, seq, kind, status] = JSON.parse(payload) as [string, number, string, RunStatus];
    return { runId, seq, kind, status };
  } catch {
    return undefined;
  }
}

export function iso(value: Date | string | null): string {
  if (value === null) return "";
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

function toRecord(runId: string, row: RecordRow): JournalRecord {
  return {
    runId,
    seq: Number(row.seq),
    name: row.name,
    kind: row.kind,
    payload: JSON.parse(row.payload),
    createdAt: iso(row.created_at),
  };
}

function toSummary(row: typeof runs.$inferSelect): RunSummary {
  return {
    runId: row.runId,
    agent: row.agent,
    parentRunId: row.parentRunId,
    status: row.status as RunStatus,
    pause: (row.pause as PauseState | null) ?? null,
    error: row.error,
    inputText: row.inputText,
    recordCount: row.recordCount,
    lastSeq: row.lastSeq,
    modelTurns: row.modelTurns,
    toolCalls: row.toolCalls,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    startedAt: iso(row.startedAt),
    updatedAt: iso(row.updatedAt),
    completedAt: row.completedAt ? iso(row.completedAt) : null,
  };
}
