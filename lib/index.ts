/**
 * Backtrack: a durable journal for AI-agent runs. The library entry point (framework-free).
 * Server-side only where a database is involved (openStore, PostgresStore).
 */
export * from "./journal/types";
export * from "./journal/errors";
export type { Durable, Journal, DoOptions } from "./journal/ports";
export { isLister, isLeaser, type Lister, type Leaser, type UnfinishedRun, type UnfinishedQuery } from "./journal/ports";
export { crashAt, SimulatedCrashError, type FaultPlan } from "./journal/faults";
export { MemStore } from "./journal/memory-store";
export { DEFAULT_PAYLOAD_LIMIT_BYTES, type JournalOptions } from "./journal/base";
export { RUN_START, RUN_COMPLETE } from "./journal/names";
export { canonicalJson, stableHash } from "./journal/canonical";

export { MaxTurnsError, InputMismatchError } from "./agent/errors";
export { Agent, type AgentOptions, type RunOptions, type RunResult } from "./agent/agent";
export { tool, describeTool, sleep, type Tool, type AnyTool, type ToolContext, type ToolSafety } from "./agent/tool";
export { collect, drivesWholeTree, type Model, type ModelRequest, type ModelStreamPart, type ToolDescription } from "./agent/model";
export * from "./agent/messages";
export type * from "./agent/payloads";
export type { AgentEvent, DurableEvent } from "./agent/events";
export { isPause, PauseSignal, PendingApproval, Interrupted, Sleeping, ResumeHalt } from "./agent/pauses";
export { replay, recordedTurns, NoRecordedOutputError } from "./agent/replay";
export { fromAiSdk, ModelCallError } from "./agent/ai-sdk";

export { projectEvents, replayEvents } from "./inspect/events";
export { buildFlow, type FlowNode, type FlowNodeKind } from "./inspect/flow";
export { flowToMermaid, renderMermaid, escapeLabel } from "./inspect/mermaid";
export { outline, outlineEntry, type OutlineEntry } from "./inspect/outline";
export { timelineOf, extendTimeline, summaryAt, stateAt, conversationItems, type Timeline, type StepSummary, type StepState, type ConversationItem } from "./inspect/timeline";
export { flowWindow, chartItems, chartSource, decoratedSource, type ChartItem, type FlowWindow } from "./inspect/chart";

export { openStore, PostgresStore, openDatabase, resolveDatabase, type StoreOptions } from "./store/index";

export { scriptedModel, type Script, type ScriptedReply } from "./demo/scripted";
export { demoModel } from "./demo/models";
export { writeDemo, demoRuns } from "./demo/seed";
export { runLiveDemo, liveAgent } from "./demo/live";
export { demoRegistry } from "./demo/registry";
export { Registry, UnknownNameError, type AgentEntry, type ModelEntry } from "./agent/registry";

export {
  SessionService,
  Session,
  sessionView,
  sessionTimeline,
  replayState,
  eventChanges,
  scopeOf,
  StaleSessionError,
  SessionNotFoundError,
  SessionExistsError,
  ReadOnlyStateError,
  RebuildMismatchError,
  EventTooLargeError,
  type SessionServiceOptions,
  type GetOptions,
  type SessionView,
  rebuildReport,
  type RebuildReport,
  type TimelineStep,
  type TimelineEvent,
  type KeyChange,
  stateRows,
  sessionStep,
  historyTimeline,
  rebuildRows,
  type StateRow,
  type StateRows,
  type SessionHistory,
  type SessionStep,
  type RebuildRow,
} from "./sessions/index";
export type * from "./sessions/types";
export { TICKET_BOOKING, ticketBookingEvents, writeTicketBooking } from "./demo/ticket-booking";
export * from "./recovery/index";
export { SagaAbortedError, type CompensationOutcome } from "./agent/saga";
export { PostgresWaker } from "./store/postgres-waker";
export { replayRun, REPLAY_SUFFIX, type ReplayRunOptions, type ReplayRunResult } from "./regression/replay-run";
export { diffRuns, regressionReport, type RegressionReport, type Scorer } from "./regression/diff-runs";
export { checkReplay, type CheckResult } from "./regression/check";
export { RECORDED_MODEL, replayModelNames, resolveReplayModel } from "./regression/models";
export { defineConfig, applyConfig, type BacktrackConfig, type ConfigModel } from "./config/config";
export { NoMemoryContextError } from "./memory/errors";
export { NoRecordedInputError, ReplayToolsError, ReplayTargetExistsError, ReplayFailedError, RunNotCompleteError } from "./regression/errors";
export type { StripDisclosure } from "./memory/replay-plan";
export { recallMemory, rankMemories, RECALLED_HEADING, type RecallMemoryOptions } from "./memory/recall";
export { memoryBankFor, memoryId, MemMemoryBank, SqlMemoryBank, type MemoryBank, type StoredMemory } from "./memory/banks";
export { readMemoryContext, type AgentMemory, type MemoryComposition, type MemoryContextPayload, type MemoryRequest, type RecalledMemory } from "./agent/memory";
export { diffRecords, type RunDiff, type DiffEntry, type DiffDetail, type DiffStatus, type DiffSummary, type DiffOptions } from "./inspect/diff";
export { decisionPoints, type DecisionPoint, type ModelDecision, type ToolDecision, type ToolCallSignature, type ToolStatus } from "./inspect/decision-points";
export { REALIGN_MAX_EDITS, type RealignInfo } from "./inspect/realign";
