/**
 * PostgresStore: the durable Journal on PostgreSQL (a server through postgres.js, or embedded
 * PGlite). The append statements and their invariants are in append-sql.ts: one statement per
 * append, first writer of a name wins, seq dense per run. Listeners hear of appends through
 * notify-batch.ts, in this process's order: a status change first sends the appends' queued notes.
 */
import { eq, inArray, sql } from "drizzle-orm";
import { JournalBase, type JournalOptions } from "../journal/base";
import { summaryDelta } from "../journal/summary";
import type { AppendResult, HistoryOptions, JournalNotification, JournalRecord, NewRecord, RunPage, RunQuery, RunStatus, RunStatusPatch, RunSummary } from "../journal/types";
import type {
  DeleteResult,
  ForkCopy,
  Forker,
  ImportBatch,
  Leaser,
  Lister,
  PriceRunsOptions,
  Pricer,
  RunContents,
  RunPricing,
  RunReader,
  StagedTrace,
  TraceRunState,
  TraceStaging,
  TraceWrite,
  UnfinishedQuery,
  UnfinishedRun,
} from "../journal/ports";
import { priceDueRuns } from "./cost-sql";
import { copyForFork } from "./fork-sql";
import * as importing from "./import-sql";
import * as staging from "./otel-sql";
import { drizzleOver, type Database } from "./drizzle";
import * as recovery from "./recovery-sql";
import * as retention from "./retention-sql";
import { appendStatement, JOURNAL_CHANNEL, type AppendPath } from "./append-sql";
import { NotificationBatcher } from "./notify-batch";
import { runs } from "./schema/index";
import { UNIQUE_VIOLATION } from "./rows";
import { costRangeQuery, listRuns, newestFirstQuery, summaryQuery, toSummary, type CostRange } from "./run-lists";
import { PAGE_SQL, READ_KINDS_SQL, READ_SQL, RECORD_COLUMNS, SEQ_END } from "./read-sql";
import { textValue, type SqlClient } from "./sql-client";

/** Tries of an append whose seq another writer took first (another process writing the same run). */
const SEQ_RACE_RETRIES = 40;
/** How long after writing a run's summary row a plain record skips it (append-sql.ts's SUMMARY_DUE). */
const SUMMARY_FRESH_MS = 1_000;
/** Runs whose summary write time is remembered; all are forgotten beyond it (they are only hints). */
const REMEMBERED_SUMMARIES = 50_000;

const STATUS_SQL = `
WITH updated AS (
  UPDATE runs SET status = $2::text, pause = $3::text::jsonb, error = $4::text, updated_at = now()
  WHERE run_id = $1::text RETURNING run_id
)
SELECT pg_notify('${JOURNAL_CHANNEL}', json_build_array($1::text, -1, 'status', $2::text)::text) FROM updated`;

interface RecordRow {
  seq: number;
  name: string;
  kind: string;
  payload: string;
  created_at: string;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class PostgresStore extends JournalBase implements Lister, Leaser, TraceStaging, Forker, RunReader, Pricer {
  readonly db: Database;
  private readonly notes: NotificationBatcher;
  /** runId → when this process last wrote the run's summary row with status running (ms, this clock). */
  private readonly summarizedAt = new Map<string, number>();

  private summaryOfRunQuery: ReturnType<PostgresStore["preparedSummaryOfRun"]> | undefined;
  /** Table versions this store has marked other versions' prices due for (cost-sql.ts). */
  private readonly pricedVersions = new Set<string>();

  constructor(
    readonly client: SqlClient,
    options: JournalOptions = {},
  ) {
    super(options);
    this.db = drizzleOver(client);
    this.notes = new NotificationBatcher(client, JOURNAL_CHANNEL);
  }

  protected async write(record: NewRecord, payloadText: string, nextSeq?: number): Promise<AppendResult> {
    const delta = summaryDelta(record);
    // With the next seq known (this process wrote or read the run last), one insert at it; else a
    // header starts a run (create its row first) and anything else reads the next seq from the run.
    // Next seq 0 (the run was read empty) starts the run too: "at" would find no summary row.
    let path: AppendPath = nextSeq === 0 || (nextSeq === undefined && record.kind === "header") ? "first" : nextSeq !== undefined ? "at" : "next";
    for (let attempt = 0; attempt < SEQ_RACE_RETRIES; attempt += 1) {
      let rows: Array<{ seq: number; created_at: string; summarized?: number }>;
      try {
        const [text, params] = appendStatement(path, record, payloadText, delta, nextSeq, path === "at" && this.summaryFresh(record.runId));
        rows = await this.client.query(text, params, { prepare: true });
      } catch (error) {
        if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
        // The first writer of this name won: hand back its record. Else another writer took the
        // seq: read the next one from the run, after a pause that grows when many writers race.
        const existing = await this.readOne(record.runId, record.name);
        if (existing) return { created: false, record: existing };
        path = "next";
        if (attempt >= 2) await pause(Math.random() * Math.min(50, 2 ** attempt));
        continue;
      }
      const inserted = rows[0];
      if (inserted) {
        this.noteSummary(record.runId, inserted.summarized, delta.status);
        this.notes.add({ runId: record.runId, seq: Number(inserted.seq), kind: record.kind, status: delta.status });
        return {
          created: true,
          record: {
            runId: record.runId,
            seq: Number(inserted.seq),
            name: record.name,
            kind: record.kind,
            payload: JSON.parse(payloadText),
            createdAt: inserted.created_at,
          },
        };
      }
      // Nothing inserted: the run's row was not there ("next") or was there already ("first").
      path = path === "first" ? "next" : "first";
    }
    throw new Error(`could not append "${record.name}" to run "${record.runId}" after ${SEQ_RACE_RETRIES} tries`);
  }

  private summaryFresh(runId: string): boolean {
    const at = this.summarizedAt.get(runId);
    return at !== undefined && performance.now() - at < SUMMARY_FRESH_MS;
  }

  /** Remembers a summary write that left the run running; any other outcome forgets the run. */
  private noteSummary(runId: string, summarized: number | undefined, status: RunStatus): void {
    if (summarized === undefined) return;
    if (Number(summarized) === 0) return;
    if (status !== "running") {
      this.summarizedAt.delete(runId);
      return;
    }
    if (this.summarizedAt.size >= REMEMBERED_SUMMARIES) this.summarizedAt.clear();
    this.summarizedAt.set(runId, performance.now());
  }

  override restart(): void {
    super.restart();
    this.summarizedAt.clear();
  }

  protected async read(runId: string, options: HistoryOptions): Promise<JournalRecord[]> {
    const from = options.from ?? 0;
    // A page is a window of seqs (read-sql.ts); with kinds, `limit` counts the records they keep.
    const pageEnd = options.kinds === undefined && options.limit !== undefined ? from + options.limit : SEQ_END;
    const params = [runId, from, Math.min(options.before ?? SEQ_END, pageEnd, SEQ_END), options.limit ?? null];
    const rows = await (options.kinds === undefined
      ? this.client.query<RecordRow>(READ_SQL, params, { prepare: true })
      : this.client.query<RecordRow>(READ_KINDS_SQL, [...params, JSON.stringify(options.kinds)], { prepare: true }));
    return rows.map((row) => toRecord(runId, row));
  }

  /**
   * A window of a run's records as one JSON text (read-sql.ts PAGE_SQL), for a reader that parses
   * it elsewhere: raw bytes on a server connection, text on an embedded database. Redaction and
   * payload rules are the reader's: this is the stored data as it is.
   */
  async historyPage(runId: string, options: HistoryOptions = {}): Promise<Uint8Array | string> {
    const from = options.from ?? 0;
    const pageEnd = options.kinds === undefined && options.limit !== undefined ? from + options.limit : SEQ_END;
    const params = [runId, from, Math.min(options.before ?? SEQ_END, pageEnd, SEQ_END), options.limit ?? null, options.kinds === undefined ? null : JSON.stringify(options.kinds)];
    return (await textValue(this.client, PAGE_SQL, params)) ?? "[]";
  }

  protected async readOne(runId: string, name: string): Promise<JournalRecord | undefined> {
    const rows = await this.client.query<RecordRow>(`SELECT ${RECORD_COLUMNS} FROM records WHERE run_id = $1::text AND name = $2::text`, [runId, name], { prepare: true });
    return rows[0] && toRecord(runId, rows[0]);
  }

  /** Many runs in two statements: their summary rows, and all their records in run and seq order. */
  async readRuns(runIds: readonly string[]): Promise<RunContents[]> {
    if (runIds.length === 0) return [];
    const [summaryRows, recordRows] = await Promise.all([
      this.summariesOf(runIds),
      this.client.query<RecordRow & { run_id: string }>(
        `SELECT run_id, ${RECORD_COLUMNS} FROM records WHERE run_id IN (SELECT json_array_elements_text($1::text::json)) ORDER BY run_id, seq`,
        [JSON.stringify(runIds)],
        { prepare: true },
      ),
    ]);
    const contents = new Map<string, RunContents>(summaryRows.map((row) => [row.run.runId, { summary: toSummary(row), records: [] }]));
    for (const row of recordRows) contents.get(row.run_id)?.records.push(toRecord(row.run_id, row));
    return runIds.flatMap((runId) => contents.get(runId) ?? []);
  }

  async run(runId: string): Promise<RunSummary | undefined> {
    const rows = await this.summaryOfRun().execute({ runId });
    return rows[0] && toSummary(rows[0]);
  }

  /** One run's summary row, its statement built once: building it anew cost about 0.3 ms of CPU a
   * call, a tenth of a suite replay's. */
  private summaryOfRun() {
    return (this.summaryOfRunQuery ??= this.preparedSummaryOfRun());
  }

  private preparedSummaryOfRun() {
    return summaryQuery(this.db)
      .where(eq(runs.runId, sql.placeholder("runId")))
      .prepare("backtrack_run_summary");
  }

  async runs(query: RunQuery = {}): Promise<RunPage> {
    return listRuns(this.db, query);
  }

  /** The newest-first list's statement (exposed so that tests can check its plan). */
  runsQuery(query: RunQuery, limit: number) {
    return newestFirstQuery(this.db, query, limit);
  }

  /** One range of the cost sort (exposed so that tests can check its plan). */
  costRunsQuery(query: RunQuery, range: CostRange, limit: number) {
    return costRangeQuery(this.db, query, range, limit);
  }

  /** Summary rows of the named runs, found through the primary key (exposed so that tests can
   * check its plan). */
  summariesOf(runIds: readonly string[]) {
    return summaryQuery(this.db).where(inArray(runs.runId, [...runIds]));
  }

  async priceRuns(pricing: RunPricing, options: PriceRunsOptions = {}): Promise<{ priced: number; more: boolean }> {
    const reset = !this.pricedVersions.has(pricing.version);
    const outcome = await priceDueRuns(this.client, pricing, options, reset);
    this.pricedVersions.add(pricing.version);
    return outcome;
  }

  protected async writeStatus(runId: string, patch: RunStatusPatch): Promise<void> {
    // The appends' queued notes go first, so that no listener sees a record's note after the status it led to.
    await this.notes.flush();
    this.summarizedAt.delete(runId);
    await this.client.query(STATUS_SQL, [runId, patch.status, patch.pause ? JSON.stringify(patch.pause) : null, patch.error ?? null]);
  }

  /** `also`: rows of another table committed in the same statement as the runs (see import-sql.ts). */
  beginImport(also?: importing.CommitAlso): Promise<ImportBatch> {
    return importing.beginImport(this.client, (runIds) => this.forgetRuns(runIds), also);
  }

  async copyForFork(copy: ForkCopy): Promise<{ created: boolean }> {
    const outcome = await copyForFork(this.client, copy, this.forkTexts(copy));
    this.forgetRuns([copy.newRunId]);
    return outcome;
  }

  async deleteRun(runId: string): Promise<DeleteResult> {
    const { runs, records, leases } = await importing.deleteRun(this.client, runId);
    this.forgetRuns(runs);
    for (const gone of runs) this.summarizedAt.delete(gone);
    return { runs, records, leases };
  }

  loadTraces(traceIds: readonly string[], runIds: readonly string[]): Promise<{ traces: StagedTrace[]; runs: TraceRunState[] }> {
    return staging.loadTraces(this.client, traceIds, runIds);
  }

  async writeTraces(writes: readonly TraceWrite[]): Promise<void> {
    await staging.writeTraces(this.client, writes);
    this.forgetRuns(writes.flatMap((write) => write.runs.map((run) => run.runId)));
  }

  /** One batch of `prune` (lib/retention): old root runs deleted with their trees, or counted. */
  async pruneRunBatch(query: retention.RunBatchQuery): Promise<retention.RunBatch> {
    const batch = await retention.pruneRunBatch(this.client, query);
    if (!query.dryRun) {
      this.forgetRuns(batch.runs);
      for (const gone of batch.runs) this.summarizedAt.delete(gone);
    }
    return batch;
  }

  pruneSessionBatch(query: { cutoff: Date; after: string; limit: number; dryRun: boolean }): Promise<retention.SessionBatch> {
    return retention.pruneSessionBatch(this.client, query);
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
      for (const note of parseNotifications(payload)) listener(note);
    });
  }

  /** Sends the notes of appends made so far now, not at the end of their window. */
  flushNotifications(): Promise<void> {
    return this.notes.flush();
  }

  async close(): Promise<void> {
    await this.notes.flush();
    await this.client.close();
  }
}

/** One note, `[runId, seq, kind, status]` (a status change, an import), as the channel carries it. */
export function parseNotification(payload: string): JournalNotification | undefined {
  try {
    return toNote(JSON.parse(payload));
  } catch {
    return undefined;
  }
}

/** The notes of a payload: one note, or a batch of them (`[[runId, seq, kind, status], …]`). */
export function parseNotifications(payload: string): JournalNotification[] {
  try {
    const parsed: unknown = JSON.parse(payload);
    if (!Array.isArray(parsed)) return [];
    const notes = Array.isArray(parsed[0]) ? parsed.map(toNote) : [toNote(parsed)];
    return notes.filter((note): note is JournalNotification => note !== undefined);
  } catch {
    return [];
  }
}

function toNote(value: unknown): JournalNotification | undefined {
  if (!Array.isArray(value) || typeof value[0] !== "string" || typeof value[1] !== "number") return undefined;
  const [runId, seq, kind, status] = value as [string, number, string, RunStatus];
  return { runId, seq, kind, status };
}

function toRecord(runId: string, row: RecordRow): JournalRecord {
  return {
    runId,
    seq: Number(row.seq),
    name: row.name,
    kind: row.kind,
    payload: JSON.parse(row.payload),
    createdAt: row.created_at,
  };
}
