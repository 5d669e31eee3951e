/** The payloads the loop journals, by record kind. Projections read them defensively: stored data may be older or foreign. */
import type { AssistantMessage, RunInput, Usage } from "./messages";

/** run:start — everything needed to run the input again from the journal alone. */
export interface HeaderPayload {
  input: RunInput;
  agent: string;
  model: string;
  system?: string;
  tools: string[];
  parentRunId?: string;
  /** For a replay: the run it re-runs. */
  replayOf?: string;
}

export interface ModelPayload {
  message: AssistantMessage;
  usage: Usage;
  model: string;
  durationMs: number;
}

export interface AttemptPayload {
  toolCallId: string;
  toolName: string;
  args: unknown;
  idempotencyKey: string;
}

export interface ToolResultPayload {
  toolCallId: string;
  toolName: string;
  args: unknown;
  result: unknown;
  isError: boolean;
  durationMs: number;
  /** Sub-agent runs this call started. */
  childRunIds?: string[];
}

export interface ApprovalPayload {
  toolCallId: string;
  toolName: string;
  approved: boolean;
  by: string;
  at: string;
  reason?: string;
}

/** A durable step (`ctx.step`) or run:complete. */
export interface ValuePayload {
  step?: string;
  value: unknown;
}

/** Signals: durable pauses and starts of sub-agents inside a tool call. */
export type SignalPayload =
  | { type: "subagent"; childRunId: string; agent: string }
  | { type: "sleep"; wakeAt: string }
  | { type: "interrupt"; question: string }
  | { type: string; [key: string]: unknown };
