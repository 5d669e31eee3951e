/**
 * pruneRuns: deletes runs (with their sub-agent runs, records, leases and timers) and sessions
 * whose last activity is older than a cutoff, in batches, so that a million old runs never make
 * one long transaction: inspectors keep reading and writing between and during batches.
 *
 * Invariants:
 * - a run goes only when both its start and its last activity are older than `olderThan`, and it
 *   is a root (a sub-agent run goes with its root, never alone while the root stays);
 * - pinned runs and the sources of forks are kept unless `includeKept` (the one predicate is
 *   keptRunSql in lib/store/retention-sql.ts; MemStore judges fork sources by their headers);
 * - `dryRun` deletes nothing and reports what would go;
 * - on a PostgresStore each batch is one statement; on other Journals (MemStore) runs are
 *   listed and deleted one by one through `deleteRun`, the same removal `backtrack delete` uses.
 */
import { BadInputError } from "../journal/errors";
import type { Journal } from "../journal/ports";
import type { RunSummary } from "../journal/types";
import type { RunBatch, RunBatchQuery, SessionBatch } from "../store/retention-sql";

export interface PruneOptions {
  /** Milliseconds: runs and sessions idle for longer go (see parseDuration for "30d"). */
  olderThan: number;
  /** Only runs whose status is one of these (default: every status). */
  statuses?: readonly string[];
  /** Only runs of this agent. */
  agent?: string;
  /** Report what would go; delete nothing. */
  dryRun?: boolean;
  /** Root runs per batch (default 500). */
  batchSize?: number;
  /** Also prune pinned runs and the sources of forks. */
  includeKept?: boolean;
  /** The clock (default Date.now). */
  now?: number;
  /** Called after each batch (progress for long prunes). */
  onBatch?: (batch: { runs: number; records: number; sessions: number }) => void;
}

export interface PruneResult {
  dryRun: boolean;
  /** The cutoff: what was last active before it went. */
  cutoff: string;
  /** Runs removed (or that would be), sub-agent runs included. */
  runs: number;
  /** The first RUN_IDS_SHOWN of them, sorted per batch. */
  runIds: string[];
  records: number;
  leases: number;
  sessions: number;
  batches: number;
}

/** A store that prunes in SQL batches (PostgresStore). */
export interface BatchPruner {
  pruneRunBatch(query: RunBatchQuery): Promise<RunBatch>;
  pruneSessionBatch(query: { cutoff: Date; after: string; limit: number; dryRun: boolean }): Promise<SessionBatch>;
}

export const DEFAULT_BATCH_SIZE = 500;
const RUN_IDS_SHOWN = 100;
const SESSION_BATCH = 1_000;

function isBatchPruner(store: object): store is BatchPruner {
  return typeof (store as Partial<BatchPruner>).pruneRunBatch === "function" && typeof (store as Partial<BatchPruner>).pruneSessionBatch === "function";
}

function checkOptions(options: PruneOptions): void {
  if (!Number.isFinite(options.olderThan) || options.olderThan <= 0) throw new BadInputError("olderThan must be a positive number of milliseconds");
  const size = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(size) || size < 1 || size > 100_000) throw new BadInputError("batchSize must be a whole number from 1 to 100,000");
  if (options.statuses && options.statuses.length === 0) throw new BadInputError("statuses, when given, must name at least one status");
}

export async function pruneRuns(store: Journal, options: PruneOptions): Promise<PruneResult> {
  checkOptions(options);
  const cutoff = new Date((options.now ?? Date.now()) - options.olderThan);
  const result: PruneResult = { dryRun: options.dryRun ?? false, cutoff: cutoff.toISOString(), runs: 0, runIds: [], records: 0, leases: 0, sessions: 0, batches: 0 };
  const add = (runs: readonly string[], records: number, leases: number, sessions: number) => {
    result.runs += runs.length;
    result.runIds.push(...runs.slice(0, RUN_IDS_SHOWN - result.runIds.length));
    result.records += records;
    result.leases += leases;
    result.sessions += sessions;
    result.batches += 1;
    options.onBatch?.({ runs: runs.length, records, sessions });
  };
  if (isBatchPruner(store)) await pruneInBatches(store, cutoff, options, add);
  else await pruneByListing(store, cutoff, options, add);
  return result;
}

type Add = (runs: readonly string[], records: number, leases: number, sessions: number) => void;

async function pruneInBatches(store: BatchPruner, cutoff: Date, options: PruneOptions, add: Add): Promise<void> {
  let after: RunBatch["next"] = null;
  do {
    const batch = await store.pruneRunBatch({
      cutoff,
      after,
      statuses: options.statuses ?? null,
      agent: options.agent ?? null,
      includeKept: options.includeKept ?? false,
      limit: options.batchSize ?? DEFAULT_BATCH_SIZE,
      dryRun: options.dryRun ?? false,
    });
    if (batch.next) add(batch.runs, batch.records, batch.leases, 0);
    after = batch.next;
  } while (after);
  let afterSession: string | null = "";
  do {
    const batch = await store.pruneSessionBatch({ cutoff, after: afterSession, limit: SESSION_BATCH, dryRun: options.dryRun ?? false });
    if (batch.next) add([], 0, 0, batch.sessions.length);
    afterSession = batch.next;
  } while (afterSession !== null);
}

/** MemStore and other Journals without SQL: list the roots, judge each, delete through deleteRun. */
async function pruneByListing(store: Journal, cutoff: Date, options: PruneOptions, add: Add): Promise<void> {
  const roots: RunSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.runs({ parentRunId: null, limit: 200, cursor });
    roots.push(...page.runs);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  const kept = options.includeKept ? new Set<string>() : await forkSources(store, roots);
  const old = roots.filter(
    (run) =>
      Date.parse(run.startedAt) < cutoff.getTime() &&
      Date.parse(run.updatedAt) < cutoff.getTime() &&
      (!options.statuses || options.statuses.includes(run.status)) &&
      (!options.agent || run.agent === options.agent) &&
      !kept.has(run.runId),
  );
  const size = options.batchSize ?? DEFAULT_BATCH_SIZE;
  for (let start = 0; start < old.length; start += size) {
    const ids: string[] = [];
    let records = 0;
    let leases = 0;
    for (const run of old.slice(start, start + size)) {
      if (options.dryRun) {
        for (const member of await treeOf(store, run.runId)) {
          ids.push(member.runId);
          records += member.recordCount;
        }
        continue;
      }
      const deleted = await store.deleteRun(run.runId);
      ids.push(...deleted.runs);
      records += deleted.records;
      leases += deleted.leases;
    }
    add(ids, records, leases, 0);
  }
}

/** A run and its sub-agent runs, recursively (what deleteRun would remove). */
async function treeOf(store: Journal, runId: string): Promise<RunSummary[]> {
  const root = await store.run(runId);
  const tree = root ? [root] : [];
  for (let index = 0; index < tree.length; index += 1) {
    const { runs } = await store.runs({ parentRunId: tree[index]!.runId, limit: 200 });
    tree.push(...runs.filter((run) => !tree.some((member) => member.runId === run.runId)));
  }
  return tree;
}

/** Runs that a run's run:start header names as forkedFrom (what keptRunSql finds in SQL). */
async function forkSources(store: Journal, runs: readonly RunSummary[]): Promise<Set<string>> {
  const sources = new Set<string>();
  for (const run of runs) {
    const header = await store.record(run.runId, "run:start");
    const from = (header?.payload as { forkedFrom?: { runId?: unknown } } | undefined)?.forkedFrom?.runId;
    if (typeof from === "string") sources.add(from);
  }
  return sources;
}
