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
  /** A saga run (runSaga): a failed tool rolls back the completed calls. */
  saga?: boolean;
  /** For a fork (lib/fork): the run it was forked from and the step; records before `at` are copies. */
  forkedFrom?: { runId: string; at: number };
  /** A fork whose external tools may run without a person's leave (see ForkEffectHalt). */
  allowEffects?: boolean;
  /**
   * For a fork: the run its idempotency keys are derived from, the first run of its fork chain, so
   * a call the fork repeats (same call, tool and arguments) carries the original's key and an
   * external tool can tell it is the same call. Forks written before it derive from `forkedFrom.runId`.
   */
  idempotencyRunId?: string;
  /** For a playground try (lib/playground): the run and step it re-ran, and which try it is (from 0). */
  tryOf?: { runId: string; at: number; try: number };
}

export interface ModelPayload {
  message: AssistantMessage;
  usage: Usage;
  model: string;
  durationMs: number;
  /** When the model was asked (ISO 8601); runs journaled before it was recorded have only durationMs. */
  startedAt?: string;
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
  /** When the tool started executing (ISO 8601); absent when it did not run, and in older runs. */
  startedAt?: string;
  /** The tool's execute threw (not bad input, an unknown tool or a denial): a saga rolls back. */
  threw?: boolean;
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

/** Signals: durable pauses and starts of sub-agents inside a tool call, and human answers. */
export type SignalPayload =
  | { type: "subagent"; childRunId: string; agent: string }
  | SleepPayload
  | { type: "interrupt"; question: string }
  | AnswerPayload
  | ResolutionPayload
  | { type: "retry"; resolution: number }
  | { type: string; [key: string]: unknown };

export interface SleepPayload {
  type: "sleep";
  /** When the run may go on (ISO 8601). */
  wakeAt: string;
  ms: number;
}

/**
 * `<call>:resolution:<n>`: a human's resolution of a call whose outcome was unknown (the run halted):
 * it took effect with `result` ("succeeded"), it did not and the model is told so ("failed", with
 * `reason`), or it did not and may run once more ("retry", with the same idempotency key).
 */
export interface ResolutionPayload {
  type: "resolution";
  outcome: "succeeded" | "failed" | "retry";
  result?: unknown;
  reason?: string;
  by: string;
  at: string;
}

/** `<call>:ask:<n>:answer`: a human's answer to an interrupt. */
export interface AnswerPayload {
  type: "answer";
  text: string;
  by: string;
  at: string;
}

/**
 * `<point>:passed` (kind attempt): a tool went on past a durable pause point (an answered
 * question, a due sleep, a finished sub-agent). From here until its result the call's outcome
 * is unknown again, as after its first attempt.
 */
export interface PassedPayload {
  type: "passed";
  point: string;
  at: string;
}
