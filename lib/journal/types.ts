/**
 * The journal's data model. A run is an ordered list of records; `seq` is dense from 0 and
 * `name` is unique per run (it is the memoization key of `Durable.do`).
 */

/** Kinds the journal writes. Stored data may hold other kinds (an import from a newer version):
 * those are kept and shown as unknown, never rejected by a projection. */
export const RECORD_KINDS = [
  "header", // run:start, the frozen input
  "model", // one assembled model turn
  "attempt", // written before a tool executes (at-most-once marker)
  "tool_result", // a tool's result or error
  "approval", // a human decision on a tool call
  "value", // a user-defined durable step, and run:complete
  "signal", // durable pauses and memory provenance (sleep, interrupt, :memctx)
] as const;

export type RecordKind = (typeof RECORD_KINDS)[number];

export function isKnownKind(kind: string): kind is RecordKind {
  return (RECORD_KINDS as readonly string[]).includes(kind);
}

export interface JournalRecord<Payload = unknown> {
  runId: string;
  seq: number;
  name: string;
  /** A RecordKind, or an unknown kind kept from stored data. */
  kind: string;
  payload: Payload;
  /** ISO 8601 */
  createdAt: string;
}

export interface NewRecord<Payload = unknown> {
  runId: string;
  name: string;
  kind: RecordKind;
  payload: Payload;
}

export interface AppendResult<Payload = unknown> {
  record: JournalRecord<Payload>;
  /** false when another writer recorded this name first; `record` is then theirs. */
  created: boolean;
}

export type RunStatus = "running" | "paused" | "complete" | "failed";
export const RUN_STATUSES: readonly RunStatus[] = ["running", "paused", "complete", "failed"];

export type PauseReason = "approval" | "interrupt" | "sleep" | "halt";

/** Why a paused run waits, and what unblocks it. */
export interface PauseState {
  reason: PauseReason;
  /** The run that waits (a sub-agent's pause also pauses its parents). */
  runId: string;
  /** The record name an unblocking decision is written under (approval, answer). */
  name?: string;
  message: string;
  toolName?: string;
  toolCallId?: string;
  args?: unknown;
  question?: string;
  wakeAt?: string;
  /** A halt before an external tool in a fork ran (it did not run): "Allow" runs it. Absent on an unknown-outcome halt. */
  halt?: "fork_effect";
}

/**
 * Where a run came from: written by an agent's loop, imported from JSONL, mapped from OTLP traces,
 * forked from another run, a replay, or a playground try. Recovery drives only agent, fork and replay runs unless
 * told otherwise: an imported run has no live process behind it.
 */
export const RUN_ORIGINS = ["agent", "import", "otel", "fork", "replay", "playground"] as const;
export type RunOrigin = (typeof RUN_ORIGINS)[number];

/** Origins recovery drives by default. */
export const DRIVEN_ORIGINS: readonly RunOrigin[] = ["agent", "fork", "replay"];

/** One row per run, kept by every append so that lists never scan records. */
/** A fork's lineage: the run it was forked from and the seq it was forked at (records before it are copies). */
export interface ForkedFrom {
  runId: string;
  at: number;
}

export interface RunSummary {
  runId: string;
  agent: string | null;
  parentRunId: string | null;
  origin: RunOrigin;
  /** Set on a fork (origin "fork"), null on every other run. */
  forkedFrom: ForkedFrom | null;
  status: RunStatus;
  pause: PauseState | null;
  error: string | null;
  inputText: string | null;
  recordCount: number;
  lastSeq: number;
  modelTurns: number;
  toolCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** What its model turns cost in US dollars, as last priced (lib/journal/pricing.ts); null when
   * a turn has no price or it was never priced. */
  costUsd: number | null;
  /** A model turn came after that price, or the run was never priced: costUsd may be behind. */
  costPending: boolean;
  startedAt: string;
  updatedAt: string;
  completedAt: string | null;
}

/** The runs list's orders: newest first (the default), or by cost with unknown costs last both ways. */
export const RUN_SORTS = ["started", "cost"] as const;
export type RunSort = (typeof RUN_SORTS)[number];
export type SortOrder = "asc" | "desc";

export interface RunQuery {
  status?: RunStatus;
  agent?: string;
  /** Matches run ids and input text (case-insensitive substring). */
  search?: string;
  parentRunId?: string | null;
  /** Only the forks of this run. */
  forkOf?: string;
  limit?: number;
  /** Opaque keyset cursor from a previous page's `nextCursor` (of the same sort and order). */
  cursor?: string;
  /** "started" (the default) is always newest first; "cost" follows `order` (default desc). */
  sort?: RunSort;
  order?: SortOrder;
}

export interface RunPage {
  runs: RunSummary[];
  nextCursor: string | null;
}

export interface HistoryOptions {
  /** First seq to return (inclusive). */
  from?: number;
  /** Most records to return (after `kinds` has filtered them). */
  limit?: number;
  /** Only records before this seq (exclusive): with `from`, a window of seqs. */
  before?: number;
  /** Only records of these kinds, still in seq order (a reader that needs a few kinds of a long run). */
  kinds?: readonly string[];
}

/** A status change that is not itself a record: pauses and failures. */
export interface RunStatusPatch {
  status: RunStatus;
  pause?: PauseState | null;
  error?: string | null;
}

/** What a store tells listeners after each change. */
export interface JournalNotification {
  runId: string;
  /** The appended record's seq, or -1 for a status change. */
  seq: number;
  kind: string;
  status: RunStatus;
}
