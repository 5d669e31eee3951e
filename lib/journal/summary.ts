/**
 * What one appended record changes in its run's summary row. Pure, so that MemStore and
 * PostgresStore (which passes these figures as parameters of its single append statement)
 * keep identical summaries.
 */
import { RUN_COMPLETE, RUN_START } from "./names";
import type { JournalRecord, NewRecord, RunOrigin, RunStatus } from "./types";

export interface SummaryDelta {
  agent: string | null;
  parentRunId: string | null;
  inputText: string | null;
  modelTurns: number;
  toolCalls: number;
  inputTokens: number;
  outputTokens: number;
  status: RunStatus;
  completed: boolean;
  /** The origin of a run this record starts: a replay's run:start names its source (replayOf). */
  origin: RunOrigin;
  /** Whether the summary row must be written for this record beyond its status: a store may skip
   * writing the row for a record that changes nothing a list shows (values, attempts). */
  changesSummary: boolean;
}

// Enough to search by; kept short because every append rewrites the summary row.
const MAX_INPUT_TEXT = 500;

function text(value: unknown): string | null {
  if (typeof value === "string") return value.slice(0, MAX_INPUT_TEXT);
  if (Array.isArray(value)) {
    const parts = value.map((item) => (typeof item === "object" && item !== null && "content" in item && typeof item.content === "string" ? item.content : ""));
    return parts.join("\n").slice(0, MAX_INPUT_TEXT);
  }
  return null;
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? Math.max(0, Math.round(value)) : 0;
}

export function summaryDelta(record: NewRecord | JournalRecord): SummaryDelta {
  const payload = (record.payload ?? {}) as Record<string, unknown>;
  const delta: SummaryDelta = {
    agent: null,
    parentRunId: null,
    inputText: null,
    modelTurns: 0,
    toolCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    status: "running",
    completed: false,
    origin: "agent",
    changesSummary: false,
  };
  if (record.kind === "header" && record.name === RUN_START) {
    delta.agent = typeof payload.agent === "string" ? payload.agent : null;
    delta.parentRunId = typeof payload.parentRunId === "string" ? payload.parentRunId : null;
    delta.inputText = text(payload.input);
    if (typeof payload.replayOf === "string") delta.origin = "replay";
  } else if (record.kind === "model") {
    const usage = (payload.usage ?? {}) as Record<string, unknown>;
    delta.modelTurns = 1;
    delta.inputTokens = count(usage.inputTokens);
    delta.outputTokens = count(usage.outputTokens);
  } else if (record.kind === "tool_result") {
    delta.toolCalls = 1;
  } else if (record.name === RUN_COMPLETE) {
    delta.status = "complete";
    delta.completed = true;
  }
  delta.changesSummary = record.kind === "header" || delta.modelTurns > 0 || delta.toolCalls > 0 || delta.completed;
  return delta;
}
