/**
 * PostgresStore's runs list: summary rows with each run's last record, filtered, newest first by
 * keyset on (started_at, run_id), or by cost as two ranges of runs_cost_idx (cost-sql.ts).
 * Invariants: every page is an index range, never OFFSET; a run's length and last activity come
 * from one backward probe of the records' primary key per row, never a scan.
 */
import { and, desc, eq, ilike, isNull, or, sql, type SQL } from "drizzle-orm";
import { decodeCursor, encodeCostCursor, encodeCursor, pageSize } from "../journal/cursor";
import type { PauseState, RunOrigin, RunPage, RunQuery, RunStatus, RunSummary } from "../journal/types";
import { costRanges } from "./cost-sql";
import type { Database } from "./drizzle";
import { iso } from "./rows";
import { records, runs } from "./schema/index";

export interface CostRange {
  where: SQL;
  orderBy: SQL[];
}

/** Summary rows with each run's last record (its length and last activity). */
export function summaryQuery(db: Database) {
  const last = db.select({ seq: records.seq, createdAt: records.createdAt }).from(records).where(eq(records.runId, runs.runId)).orderBy(desc(records.seq)).limit(1).as("last");
  return db
    .select({ run: runs, lastSeq: last.seq, lastAt: last.createdAt })
    .from(runs)
    .leftJoinLateral(last, sql`true`)
    .$dynamic();
}

type SummaryRow = Awaited<ReturnType<ReturnType<typeof summaryQuery>["execute"]>>[number];

/** The runs list's filters, shared by both sorts. */
function runFilters(query: RunQuery): SQL[] {
  const conditions: SQL[] = [];
  if (query.status) conditions.push(eq(runs.status, query.status));
  if (query.agent) conditions.push(eq(runs.agent, query.agent));
  if (query.parentRunId === null) conditions.push(isNull(runs.parentRunId));
  else if (query.parentRunId !== undefined) conditions.push(eq(runs.parentRunId, query.parentRunId));
  if (query.forkOf !== undefined) conditions.push(eq(runs.forkedFrom, query.forkOf));
  if (query.search) {
    const pattern = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // lower(run_id): the expression its trigram index is built on (drizzle/0016), which lookups
    // by id cannot take in place of the primary key.
    const match = or(ilike(sql`lower(${runs.runId})`, pattern), ilike(runs.inputText, pattern));
    if (match) conditions.push(match);
  }
  return conditions;
}

export function newestFirstQuery(db: Database, query: RunQuery, limit: number) {
  const conditions = runFilters(query);
  if (query.cursor) {
    const after = decodeCursor(query.cursor);
    conditions.push(sql`(${runs.startedAt}, ${runs.runId}) < (${after.startedAt}::timestamptz, ${after.runId}::text)`);
  }
  // "DESC NULLS LAST", as the indexes are built (drizzle's .desc()): a plain DESC means NULLS FIRST,
  // which no index matches, and the list then sorts every run (both columns are NOT NULL anyway).
  return summaryQuery(db)
    .where(and(...conditions))
    .orderBy(sql`${runs.startedAt} DESC NULLS LAST`, sql`${runs.runId} DESC NULLS LAST`)
    .limit(limit);
}

export function costRangeQuery(db: Database, query: RunQuery, range: CostRange, limit: number) {
  return summaryQuery(db)
    .where(and(...runFilters(query), range.where))
    .orderBy(...range.orderBy)
    .limit(limit);
}

/** One page of the list: newest first, or the priced runs' range then the unknown costs' while the page has room. */
export async function listRuns(db: Database, query: RunQuery): Promise<RunPage> {
  const limit = pageSize(query.limit);
  if (query.sort !== "cost") {
    const rows = await newestFirstQuery(db, query, limit + 1);
    const page = rows.slice(0, limit).map(toSummary);
    const last = page.at(-1);
    return { runs: page, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
  }
  const order = query.order ?? "desc";
  const rows: SummaryRow[] = [];
  for (const range of costRanges(order, query.cursor)) {
    if (rows.length > limit) break;
    rows.push(...(await costRangeQuery(db, query, range, limit + 1 - rows.length)));
  }
  const page = rows.slice(0, limit).map(toSummary);
  const last = page.at(-1);
  return { runs: page, nextCursor: rows.length > limit && last ? encodeCostCursor(last, order) : null };
}

export function toSummary({ run: row, lastSeq, lastAt }: { run: typeof runs.$inferSelect; lastSeq: number | null; lastAt: Date | null }): RunSummary {
  const seq = lastSeq ?? -1;
  // The summary row's updated_at moves with status changes and at most once a second with records.
  const updatedAt = lastAt && lastAt > row.updatedAt ? lastAt : row.updatedAt;
  return {
    runId: row.runId,
    agent: row.agent,
    parentRunId: row.parentRunId,
    origin: row.origin as RunOrigin,
    forkedFrom: row.forkedFrom === null ? null : { runId: row.forkedFrom, at: row.forkedAt ?? 0 },
    status: row.status as RunStatus,
    pause: (row.pause as PauseState | null) ?? null,
    error: row.error,
    inputText: row.inputText,
    recordCount: seq + 1,
    lastSeq: seq,
    modelTurns: row.modelTurns,
    toolCalls: row.toolCalls,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    costUsd: row.costUsd,
    costPending: row.costDue,
    startedAt: iso(row.startedAt),
    updatedAt: iso(updatedAt),
    completedAt: row.completedAt ? iso(row.completedAt) : null,
  };
}
