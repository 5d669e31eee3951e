/**
 * Backtrack: a durable journal for AI-agent runs. The package entry (`backtrack`), framework-free.
 * It holds what a program that journals, replays, recovers and compares agent runs needs, and no
 * more: the inspector's page-only view models stay under lib/inspect/ (app/ imports them by path),
 * in-memory stores, scripted models and fault injection are in `backtrack/testing`
 * (lib/testing.ts), and the demo's agents and runs in `backtrack/demo` (lib/demo/index.ts).
 * tests/api/public-names.test.ts holds the list of names; a new export there is a decision.
 * Server-side only where a database is involved (openStore, PostgresStore, SessionService).
 */

// ── The journal ──────────────────────────────────────────────────────────────────────────────
/** Records, run summaries, queries and the kinds and statuses they hold. */
export {
  RECORD_KINDS,
  RUN_STATUSES,
  isKnownKind,
  type RecordKind,
  type JournalRecord,
  type NewRecord,
  type AppendResult,
  type RunStatus,
  type PauseReason,
  type PauseState,
  type RunSummary,
  type RunQuery,
  type RunPage,
  type HistoryOptions,
  type RunStatusPatch,
  type JournalNotification,
} from "./journal/types";
/** The ports: Durable (the seed's do/history), Journal (a browsable Durable), and the optional capabilities. */
export type { Durable, Journal, DoOptions, Lister, Leaser, UnfinishedRun, UnfinishedQuery, Waker, Wake } from "./journal/ports";
/** Whether a store offers the optional capabilities (enumerating unfinished runs, run leases). */
export { isLister, isLeaser } from "./journal/ports";
/** Options every journal takes (the payload limit, 1 MiB by default). */
export { DEFAULT_PAYLOAD_LIMIT_BYTES, type JournalOptions } from "./journal/base";
/** The reserved record names: a run's frozen input and its terminal marker. */
export { RUN_START, RUN_COMPLETE } from "./journal/names";
/** Canonical JSON (sorted keys) and its short hash: how records are compared; handy for idempotency keys. */
export { canonicalJson, stableHash } from "./journal/canonical";
/** Errors: one base class with a stable `code`, recognised by brand (isBacktrackError), not only instanceof. */
export {
  BacktrackError,
  isBacktrackError,
  type ErrorCode,
  PayloadTooLargeError,
  InvalidRecordError,
  RunNotFoundError,
  ReservedNameError,
  ConfigError,
  BadInputError,
  DatabaseLockedError,
  DatabaseUnreachableError,
} from "./journal/errors";

// ── The database store ───────────────────────────────────────────────────────────────────────
/** openStore: the journal over DATABASE_URL (postgres://… or pglite:PATH), else the embedded `.backtrack/`. */
export { openStore, PostgresStore, type StoreOptions } from "./store/index";
/** The raw database client (what SessionService takes) and how a URL is read. */
export { openDatabase, resolveDatabase, type DatabaseTarget } from "./store/connection";
/** Durable timers kept in the database, so sleeping runs wake after a restart. */
export { PostgresWaker } from "./store/postgres-waker";

// ── The agent ────────────────────────────────────────────────────────────────────────────────
/** The agent loop: `new Agent({ model, store, tools })`, `run`, `runResult`, `stream`. */
export { Agent, type AgentOptions, type RunOptions, type RunResult } from "./agent/agent";
/** The loop's own errors. */
export { MaxTurnsError, InputMismatchError, NoRecordedInputError } from "./agent/errors";
/** Tools (with their safety declaration) and the durable sleep a tool or step may take. */
export { tool, sleep, type Tool, type AnyTool, type ToolContext, type ToolSafety } from "./agent/tool";
/** The model port, and `collect`, which gathers a model's stream into one assistant message. */
export { collect, type Model, type ModelRequest, type ModelStreamPart, type ToolDescription } from "./agent/model";
/** Any AI SDK language model (LanguageModelV3) as a Backtrack model. */
export { fromAiSdk, ModelCallError } from "./agent/ai-sdk";
/** AI SDK apps journaled as runs: the model middleware, journaled tools, and the app's tools for a registry (replays, recovery). */
export {
  backtrackMiddleware,
  journalTools,
  fromAiSdkTools,
  type BacktrackMiddlewareOptions,
  type JournalToolsOptions,
  type JournaledToolOptions,
  type FromAiSdkToolsOptions,
  type AiSdkModelPayload,
} from "./ai-sdk/index";
/** Messages, a run's input, usage, and reading an assistant message's text and tool calls. */
export {
  inputMessages,
  textOf,
  toolCallsOf,
  type Message,
  type UserMessage,
  type AssistantMessage,
  type ToolMessage,
  type TextPart,
  type ToolCallPart,
  type ToolResultPart,
  type RunInput,
  type Usage,
} from "./agent/messages";
/** The payloads of the records the loop writes, for programs that read a journal. */
export type * from "./agent/payloads";
/** What a run emits while it is driven (`onEvent`, `stream`) and what replayEvents rebuilds. */
export type { AgentEvent, DurableEvent } from "./agent/events";
/** Pauses: a run that waits for an approval, an answer, a wake time, or a person after an unknown outcome. */
export { isPause, PauseSignal, PendingApproval, Interrupted, Sleeping, ResumeHalt } from "./agent/pauses";
/** Compensations (sagas): a tool's undo runs when a later step aborts the run. */
export { SagaAbortedError, type CompensationOutcome } from "./agent/saga";
/** Agents and models by name, as recovery, replays and backtrack.config.ts resolve them. */
/** Named scorers (`same-decisions` is built in): what `backtrack test` and bisect judge a replay by. */
export { SAME_DECISIONS, runScorer, type ScoredDiff, type ScoreResult, type ScorerEntry } from "./agent/scorers";
export { Registry, UnknownNameError, type AgentEntry, type ModelEntry, type ModelPrice } from "./agent/registry";
/** What tokens cost: the kept price table (a pinned catalog) with your prices on top, a model's price, a run's cost. */
export { priceTable, PRICE_CATALOG } from "./agent/price-catalog";
export { costOf, formatUsd, priceOf, runCost, type ModelCost, type PriceTable, type PricedTurn, type RunCost } from "./agent/pricing";
/** The memory port: what a memory component composes in front of turn 0 (journaled as turn:0:memctx). */
export type { AgentMemory, MemoryComposition, MemoryContextPayload, MemoryRequest, RecalledMemory } from "./agent/memory";

// ── Memory ───────────────────────────────────────────────────────────────────────────────────
/** recallMemory: an AgentMemory over a bank of memories, with a simple, predictable relevance rule. */
export { recallMemory, type RecallMemoryOptions } from "./memory/recall";
/** Memory banks: the `memories` table beside a database journal (memoryBankFor picks the one beside a journal). */
export { memoryBankFor, SqlMemoryBank, type MemoryBank, type StoredMemory } from "./memory/banks";
/** A memory-off replay of a run without a usable :memctx record. */
export { NoMemoryContextError } from "./memory/errors";
/** What a memory-off replay dropped and kept. */
export type { StripDisclosure } from "./memory/replay-plan";

// ── Replay and the run's projections ─────────────────────────────────────────────────────────
/** A model that re-emits a run's recorded outputs (never re-asks), and the error when a drive diverges. */
export { replay, NoRecordedOutputError } from "./agent/replay";
/** A run's events rebuilt from its records (from a history, or read from a store). */
export { projectEvents, replayEvents } from "./inspect/events";
/** A run as a Mermaid flowchart (labels escaped). */
export { renderMermaid } from "./inspect/mermaid";

// ── Recovery ─────────────────────────────────────────────────────────────────────────────────
/** Enumerate unfinished runs, skip finished ones, re-drive the rest under leases. */
export { recover, isComplete, unfinished, type Resume, type RecoverOptions, type RecoverResult, type RecoveredRun, type RecoveryOutcome } from "./recovery/recover";
/** Exclusive, renewed run leases (efficiency, not safety). */
export { lease, defaultHolder, DEFAULT_LEASE_TTL_MS, type LeaseOptions } from "./recovery/lease";
/** Durable timers: bind a Waker to a drive, an in-memory Waker (its clock can be moved), wake the runs whose sleep is due. */
export { withWaker, MemWaker, type MemWakerOptions } from "./recovery/waker";
export { wakeDue, type WakeOptions } from "./recovery/wake";
/** A person's decision on a paused run: approve or deny, answer, resolve a halt. */
export { approve, answer, resolveHalt, type ApprovalDecision, type Decided, type Resolution } from "./recovery/pause-decisions";
/** A Resume that rebuilds each run's agent from a registry by the names in its run:start. */
export { registryResume, type RegistryResumeOptions } from "./recovery/resume";
/** Recovery's errors. */
export { LeaseHeldError, LeaseLostError, RecoveryError, NotWaitingError, AlreadyDecidedError, type RunFailure } from "./recovery/errors";

// ── Sessions (Google ADK semantics) ──────────────────────────────────────────────────────────
/** Event logs whose state is rebuilt from persisted state deltas; a stale session object is refused. */
export { SessionService, type SessionServiceOptions, type GetOptions } from "./sessions/service";
export { Session } from "./sessions/session";
/** A state key's scope: its `temp:`, `app:` or `user:` prefix, or the session's own. */
export { scopeOf } from "./sessions/state";
/** Sessions' errors. */
export { StaleSessionError, SessionNotFoundError, SessionExistsError, ReadOnlyStateError, RebuildMismatchError, EventTooLargeError } from "./sessions/errors";
/** Sessions' events, state, queries and results. */
export type * from "./sessions/types";

// ── Regression ───────────────────────────────────────────────────────────────────────────────
/** Run a recorded run's frozen input again under a new model, prompt or tool set. */
export { replayRun, type ReplayRunOptions, type ReplayRunResult } from "./regression/replay-run";
/** Compare two runs by their decision points; a report with your own scorer. */
export { diffRuns, regressionReport, type RegressionReport, type Scorer } from "./regression/diff-runs";
/** Replay a complete run against its recorded outputs and say whether it is identical (`replay --check`). */
export { checkReplay, type CheckResult } from "./regression/check";
/** The model name that replays a run's own recorded outputs. */
export { RECORDED_MODEL } from "./regression/models";
/** Regression's errors. */
export { ReplayToolsError, ReplayTargetExistsError, ReplayFailedError, RunNotCompleteError } from "./regression/errors";
/** Regression suites: pin runs, replay them all as a batch, report JUnit and Markdown, move a suite between databases. */
export { runSuite, createBatch, driveBatch, type BatchRequest, type DriveOptions, type BatchReport } from "./suites/run-suite";
export { pinRun, unpinRun, suiteStore, type PinRequest } from "./suites/pins";
export { MemSuiteStore, type SuiteStore, type NewPin, type NewBatch } from "./suites/store";
export { exportSuite, importSuite, type SuiteImportResult } from "./suites/transfer";
export { junitXml, batchMarkdown, compareBatches, diffLink, type BatchComparison } from "./suites/report";
export type { Pin, Batch, BatchResult, ResultStatus, BatchStatus, StatusCounts, SuiteSummary } from "./suites/types";
export { BadSuiteNameError, EmptySuiteError, BatchNotFoundError, PinNotFoundError, BadSuiteFileError } from "./suites/errors";
/** The pure diff of two histories, and its result. */
export { diffRecords, type RunDiff, type DiffEntry, type DiffDetail, type DiffStatus, type DiffSummary, type DiffOptions } from "./inspect/diff";
/** A run's decision points (model steps and their tool calls, in order): what the diff aligns. */
export { decisionPoints, type DecisionPoint, type ModelDecision, type ToolDecision, type ToolCallSignature, type ToolStatus } from "./inspect/decision-points";
/** The cap of the diff's optional realignment after a divergence. */
export { REALIGN_MAX_EDITS, type RealignInfo } from "./inspect/realign";

// ── backtrack.config.ts ──────────────────────────────────────────────────────────────────────
/** The config file's shape, and applying one to a registry (loading the file is the CLI's and the server's). */
export { defineConfig, applyConfig, type BacktrackConfig, type ConfigModel, type ConfigScorer } from "./config/config";

// ── Fork (time travel) ───────────────────────────────────────────────────────────────────────
/** Fork a run at a step, edit what happened there, go live from it; the plan of what may run live first. */
export { forkRun, forkPlan, reserveFork, driveFork, type ForkEdit, type ForkOptions, type ForkResult, type ForkRunOptions, type ForkPlan, type PlannedTool } from "./fork/index";
/** The playground: one model turn re-run N times (lib/playground/README.md). */
export {
  forkTry,
  MAX_TRIES,
  reserveTryFork,
  summarizeTries,
  TryError,
  tryStep,
  type StepTries,
  type TryEdits,
  type TryOptions,
  type TryResult,
  type TrySummary,
} from "./playground/index";
/** Fork's errors, and the halt before an external tool in a fork. */
export { ForkError, MissingModelError } from "./fork/index";
/** Find the model decision that flips a run's outcome under another model (a scorer decides). */
export { bisectRun, BisectError, type BisectFork, type BisectOptions, type BisectResult } from "./fork/index";
export { ForkEffectHalt } from "./agent/pauses";
/** What a tool declares it does to the world, and a fork's lineage. */
export type { ToolEffects } from "./agent/tool";
export type { ForkedFrom } from "./journal/types";

// ── OpenTelemetry ────────────────────────────────────────────────────────────────────────────
/** OTLP traces in (what POST /v1/traces runs) and a run out as OTLP/JSON, pushed to a collector if asked (docs/otel.md). */
export { ingestOtlp, type IngestRequest, type IngestResult } from "./otel/ingest";
export { exportRunOtlp, pushOtlp } from "./otel/export";

// ── retention ────────────────────────────────────────────────────────────────────────────────
/** Prune runs and sessions idle for longer than a duration, once or on a schedule (BACKTRACK_RETENTION). */
export {
  pruneRuns,
  parseDuration,
  InvalidDurationError,
  startRetention,
  retentionFromEnv,
  type PruneOptions,
  type PruneResult,
  type Retention,
  type RetentionOptions,
} from "./retention/index";
