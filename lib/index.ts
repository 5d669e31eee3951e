/**
 * Backtrack: a durable journal for AI-agent runs. The library entry point (framework-free).
 * Server-side only where a database is involved (openStore, PostgresStore).
 */
export * from "./journal/types";
export * from "./journal/errors";
export type { Durable, Journal, DoOptions } from "./journal/ports";
export { MemStore } from "./journal/memory-store";
export { DEFAULT_PAYLOAD_LIMIT_BYTES, type JournalOptions } from "./journal/base";
export { RUN_START, RUN_COMPLETE } from "./journal/names";
export { canonicalJson, stableHash } from "./journal/canonical";

export { Agent, MaxTurnsError, InputMismatchError, type AgentOptions, type RunOptions, type RunResult } from "./agent/agent";
export { tool, describeTool, type Tool, type AnyTool, type ToolContext, type ToolSafety } from "./agent/tool";
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
