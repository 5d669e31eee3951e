/**
 * Ports: the small interfaces the agent loop, the projections and the inspector depend on.
 * MemStore and PostgresStore implement them.
 */
import type {
  AppendResult,
  HistoryOptions,
  JournalNotification,
  JournalRecord,
  NewRecord,
  RecordKind,
  RunPage,
  RunQuery,
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
  /** Calls `listener` after every append and status change, from any process sharing the database. */
  subscribe(listener: (note: JournalNotification) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
