/**
 * Ports: the small interfaces the agent loop, the projections and the inspector depend on.
 * MemStore and PostgresStore implement them.
 */
import type { SummaryDelta } from "./summary";
import type {
  AppendResult,
  HistoryOptions,
  JournalNotification,
  JournalRecord,
  NewRecord,
  PauseState,
  RecordKind,
  RunPage,
  RunOrigin,
  RunQuery,
  RunStatus,
  RunStatusPatch,
  RunSummary,
} from "./types";

export interface DoOptions {
  /** The record kind to journal the value under; `value` by default. */
  kind?: RecordKind;
}

/** The seed's Durable: a memoized, ordered journal of one run. */
export interface Durable {
  /**
   * Returns the value recorded under `name` for `runId`; when there is none, runs `fn`, records
   * its result and returns it. If another writer records the name first, their value is returned.
   */
  do<T>(runId: string, name: string, fn: () => Promise<T> | T, options?: DoOptions): Promise<T>;
  /** The run's records in seq order. */
  history(runId: string, options?: HistoryOptions): Promise<JournalRecord[]>;
}

/** One record of an import, checked and in its run's seq order. */
export interface StagedRecord {
  runId: string;
  seq: number;
  name: string;
  kind: string;
  payload: unknown;
}

/** An imported run's summary row, folded from its records by summaryDelta (lib/journal/import.ts). */
export type ImportedRun = Omit<SummaryDelta, "origin" | "changesSummary"> & { runId: string; records: number };

/**
 * One import in progress. Staged records are seen by no reader; `commit` makes every run of the
 * import visible at once, or none of them (RunExistsError when one exists, or another import of
 * it committed first). An import never committed (discarded, or its process killed) leaves nothing.
 */
export interface ImportBatch {
  stage(records: readonly StagedRecord[]): Promise<void>;
  commit(runs: readonly ImportedRun[]): Promise<void>;
  discard(): Promise<void>;
}

/** What deleting a run removed: the run and its sub-agent runs, their records and leases. */
export interface DeleteResult {
  runs: string[];
  records: number;
  leases: number;
}

/** A Durable that can also be browsed and watched: what the loop, CLI and inspector use. */
export interface Journal extends Durable {
  /** Appends one record; the first writer of a name wins (see AppendResult.created). */
  append<P>(record: NewRecord<P>): Promise<AppendResult<P>>;
  /** One record by name, or undefined. */
  record(runId: string, name: string): Promise<JournalRecord | undefined>;
  /** The run's summary row, or undefined for an unknown run. */
  run(runId: string): Promise<RunSummary | undefined>;
  runs(query?: RunQuery): Promise<RunPage>;
  /** Records a status that is not a record of its own: a pause, a failure, running again. */
  setStatus(runId: string, patch: RunStatusPatch): Promise<void>;
  /** Starts an all-or-nothing import (lib/journal/import.ts drives it). */
  beginImport(): Promise<ImportBatch>;
  /** Removes a run, its sub-agent runs (by parent, recursively) and their leases; RunNotFoundError when absent. */
  deleteRun(runId: string): Promise<DeleteResult>;
  /** Calls `listener` after every append and status change, from any process sharing the database. */
  subscribe(listener: (note: JournalNotification) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** One run that has no run:complete yet, as Lister enumerates it. */
export interface UnfinishedRun {
  runId: string;
  parentRunId: string | null;
  /** From the run's summary row, so that a board of unfinished runs needs no query per run. */
  agent: string | null;
  /** Recovery skips runs it did not start (imported ones) unless told otherwise. */
  origin: RunOrigin;
  status: RunStatus;
  pause: PauseState | null;
  /** The failure the run last reported, if any. */
  error: string | null;
  updatedAt: string;
  /** The holder of a live lease on the run, or null when nobody holds one (see Leaser). */
  leaseHolder: string | null;
  /** Its lease expired without a release: the holder stopped renewing (it crashed). */
  abandoned: boolean;
}

export interface UnfinishedQuery {
  /** Keyset: only runs whose id sorts after this one. */
  after?: string;
  limit?: number;
}

/**
 * Optional capability (kept off Durable on purpose): enumerate the runs that are not complete, in
 * run id order, root and sub-agent runs alike. A SQL store answers with one indexed query a page.
 */
export interface Lister {
  unfinishedRuns(query?: UnfinishedQuery): Promise<UnfinishedRun[]>;
}

/**
 * Optional capability: exclusive, expiring run leases. A lease is efficiency, not safety: it keeps
 * two processes from driving one run at once, while at-most-once tools rest on `attempt` records.
 * Times are the store's clock (the database's `now()` for PostgresStore).
 */
export interface Leaser {
  /** Takes the lease when it is free, expired, or already `holder`'s; false when another holder has it. */
  acquireLease(runId: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Extends `holder`'s lease; false when another holder has taken it over. */
  renewLease(runId: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up, if `holder` still has it. */
  releaseLease(runId: string, holder: string): Promise<void>;
}

/** One run as a bulk read returns it: its summary row and every record, in seq order. */
export interface RunContents {
  summary: RunSummary;
  records: JournalRecord[];
}

/**
 * Optional capability: read many runs at once (a suite batch reads its pinned runs this way, a
 * statement per chunk instead of several per run). Unknown runs are left out of the answer.
 */
export interface RunReader {
  readRuns(runIds: readonly string[]): Promise<RunContents[]>;
}

export function isRunReader(store: unknown): store is RunReader {
  return typeof (store as Partial<RunReader> | null)?.readRuns === "function";
}

export function isLister(store: unknown): store is Lister {
  return typeof (store as Partial<Lister> | null)?.unfinishedRuns === "function";
}

export function isLeaser(store: unknown): store is Leaser {
  const candidate = store as Partial<Leaser> | null;
  return typeof candidate?.acquireLease === "function" && typeof candidate.renewLease === "function" && typeof candidate.releaseLease === "function";
}

/** One registered wake-up: `name` is the sleep's record in `runId`; `rootRunId` is the run to drive. */
export interface Wake {
  runId: string;
  rootRunId: string;
  name: string;
  /** ISO 8601 */
  wakeAt: string;
}

/**
 * Durable timers (the seed's Waker): a sleeping run journals its wake time and registers it here;
 * MemWaker (lib/recovery/waker.ts) and PostgresWaker (lib/store/postgres-waker.ts) implement it.
 */
export interface Waker {
  /** The clock sleeps are measured on, in epoch milliseconds. */
  now(): number;
  /** Registers a wake-up; registering the same (runId, name) again changes nothing. */
  register(wake: Wake): Promise<void>;
  /** Wake-ups due at now(), earliest first. */
  due(limit?: number): Promise<Wake[]>;
  /** Forgets a wake-up (its sleep has passed). */
  clear(runId: string, name: string): Promise<void>;
}

/**
 * One staged span of an OTLP trace (lib/otel stages and materialises them). Its data is kept while
 * it waits to be journaled; once its records are written, `runId` says where and `note` keeps the
 * little later spans need of it (its turn, its tool-call ids).
 */
export interface StagedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  /** Nanoseconds since the epoch, a decimal string. */
  startNs: string;
  runId: string | null;
  note: unknown;
  data: unknown;
}

/** A trace as staged: its spans, the runs it journaled into, and a version bumped by every write. */
export interface StagedTrace {
  traceId: string;
  /** 0 for a trace never written. */
  version: number;
  runIds: string[];
  spans: StagedSpan[];
}

/** What a trace write needs to know of a run it may write to. */
export interface TraceRunState {
  runId: string;
  origin: RunOrigin;
  lastSeq: number;
  status: RunStatus;
  error: string | null;
}

/** One run's part of a trace write: its new records (with their seqs) and its summary's change. */
export interface TraceRunWrite {
  runId: string;
  /** Creates the run's summary row (origin otel); the write fails if one exists. */
  create: boolean;
  records: Array<StagedRecord & { createdAt: string }>;
  agent: string | null;
  parentRunId: string | null;
  inputText: string | null;
  startedAt: string;
  modelTurns: number;
  toolCalls: number;
  inputTokens: number;
  outputTokens: number;
  status: RunStatus;
  error: string | null;
  completed: boolean;
}

export interface TraceWrite {
  traceId: string;
  /** The version it was read at: the write fails if another writer moved it. */
  version: number;
  runIds: string[];
  /** Every staged span of the trace after this write (the store replaces its list with it). */
  spans: StagedSpan[];
  runs: TraceRunWrite[];
}

/**
 * Optional capability: staging for OTLP ingest. `writeTraces` is all or nothing: it throws
 * TraceConflictError when a trace's version moved, a span or run was written meanwhile, and the
 * caller reads again and retries.
 */
export interface TraceStaging {
  loadTraces(traceIds: readonly string[], runIds: readonly string[]): Promise<{ traces: StagedTrace[]; runs: TraceRunState[] }>;
  writeTraces(writes: readonly TraceWrite[]): Promise<void>;
}

export function isTraceStaging(store: unknown): store is TraceStaging {
  const candidate = store as Partial<TraceStaging> | null;
  return typeof candidate?.loadTraces === "function" && typeof candidate.writeTraces === "function";
}

/**
 * Optional capability: a window of a run's records as one JSON text, `[[seq, name, kind, payload,
 * createdAt], …]` in seq order (the options as `history`'s), for a reader that parses it on
 * another thread (page.ts). PostgresStore has it (the database makes the text); `pageOf` makes
 * the same text from records for stores that do not.
 */
export interface PageReader {
  historyPage(runId: string, options?: HistoryOptions): Promise<Uint8Array | string>;
}

export function isPageReader(store: unknown): store is PageReader {
  return typeof (store as Partial<PageReader> | null)?.historyPage === "function";
}

/** One fork's copy: what forkRun (lib/fork) writes before it drives the fork, all or nothing. */
export interface ForkCopy {
  sourceRunId: string;
  newRunId: string;
  /**
   * Records [1, at) of the source are copied as they are (seq, name, kind, payload, created_at);
   * seq 0 is `header`. The sub-agent runs they started are copied whole, renamed (fork-copy.ts).
   */
  at: number;
  /** The fork's run:start payload (the source's, with `forkedFrom`). */
  header: unknown;
  /** The record written at seq `at`: an edit of the source's record there, or an inserted one. */
  edited?: { name: string; kind: RecordKind; payload: unknown };
  /** The copy's origin: `fork` unless said (a playground try is a copy too). */
  origin?: "fork" | "playground";
  /** The copy's status: `running` (a fork, to be driven) unless said; a playground try is `complete`. */
  status?: "running" | "complete";
}

/**
 * Optional capability: create a fork in one step. A SQL store copies the records with one
 * `INSERT … SELECT` on the server (never through JavaScript) in the same statement that creates
 * the run's summary row, its header and its edited record. `created` is false, and nothing is
 * written, when `newRunId` exists already.
 */
export interface Forker {
  copyForFork(copy: ForkCopy): Promise<{ created: boolean }>;
}

export function isForker(store: unknown): store is Forker {
  return typeof (store as Partial<Forker> | null)?.copyForFork === "function";
}

/** One model's share of some model turns, as pricing reads them; `model` null when a turn names none. */
export interface ModelUsage {
  model: string | null;
  turns: number;
  inputTokens: number;
  outputTokens: number;
}

/**
 * How runs are priced: the price table's version, and what some turns cost (null when any is
 * unpriced). Built from a PriceTable by lib/agent/pricing.ts runPricing; the store never prices.
 */
export interface RunPricing {
  version: string;
  cost(usage: readonly ModelUsage[]): number | null;
}

export interface PriceRunsOptions {
  /** Only these runs (those due among them); else the due runs in run id order. */
  runIds?: readonly string[];
  /** Most runs to price in this call. */
  limit?: number;
}

/**
 * Optional capability: keep runs' costs (RunSummary.costUsd) for sorting. `priceRuns` prices runs
 * that are due (a model turn came after their price, or never priced, or priced under another
 * table version) from their model records, reading only records after the last priced one when
 * the version is the same. `more` says due runs are left beyond `limit`.
 * Invariant: a run whose model turns change during a call stays due, so no turn is missed.
 */
export interface Pricer {
  priceRuns(pricing: RunPricing, options?: PriceRunsOptions): Promise<{ priced: number; more: boolean }>;
}

export function isPricer(store: unknown): store is Pricer {
  return typeof (store as Partial<Pricer> | null)?.priceRuns === "function";
}
