/**
 * journalTools: AI SDK tools whose `execute` is journaled with the core's at-most-once rule.
 * Invariants (the same as the native loop's, lib/agent/loop.ts):
 * - an `attempt` record is written before a tool executes; its result (or error) after;
 * - a recorded result is returned again, never re-executed (resume, replay);
 * - an attempt without a result halts the run (ResumeHalt, the run paused for a person), unless
 *   the tool is listed in `idempotent` (then it runs again with the same idempotency key) or a
 *   person resolved the call (`backtrack resolve`: succeeded, failed or retry once);
 * - `needsApproval`: a call waits for a Backtrack approval record (`backtrack approve`, the
 *   recovery board) and pauses the run meanwhile; an approval the app gave through the AI SDK's
 *   own flow is journaled as one;
 * - `execute` receives the AI SDK's options plus `idempotencyKey`, `runId` and `callName`.
 * Tools without `execute` (handled by the client) pass through untouched.
 */
import type { ToolExecutionOptions, ToolSet } from "ai";
import { stableHash } from "../journal/canonical";
import { approvalName, attemptName, resultName, retryName } from "../journal/names";
import type { Journal } from "../journal/ports";
import { BadInputError } from "../journal/errors";
import type { ApprovalPayload, AttemptPayload, ToolResultPayload } from "../agent/payloads";
import { PendingApproval, ResumeHalt } from "../agent/pauses";
import { NoRecordedOutputError } from "../agent/replay";
import { openResolution } from "../agent/resume-rules";
import { currentRun, type AiSdkRun, type LocatedCall } from "./session";

export interface JournalToolsOptions {
  store: Journal;
  runId: string;
  /** Tools safe to run again with the same idempotency key when their outcome is unknown (instead of halting). */
  idempotent?: readonly string[];
}

/** What a journaled tool's `execute` receives besides the AI SDK's own options. */
export interface JournaledToolOptions extends ToolExecutionOptions {
  /** The same on every try of this call (run, call and arguments): send it downstream to deduplicate. */
  idempotencyKey: string;
  runId: string;
  /** The call's record name prefix, turn:<t>:call:<i>. */
  callName: string;
}

type AnySdkTool = ToolSet[string];
type Execute = NonNullable<AnySdkTool["execute"]>;
type NeedsApproval = NonNullable<AnySdkTool["needsApproval"]>;

export function journalTools<T extends ToolSet>(tools: T, options: JournalToolsOptions): T {
  if (typeof options?.store?.append !== "function") throw new BadInputError("journalTools needs a store (a Backtrack Journal)");
  if (typeof options.runId !== "string" || options.runId.length === 0) throw new BadInputError("journalTools needs a runId");
  if (typeof tools !== "object" || tools === null) throw new BadInputError("journalTools needs an object of AI SDK tools");
  const wrapped: Record<string, AnySdkTool> = {};
  for (const [name, tool] of Object.entries(tools)) wrapped[name] = wrapTool(name, tool, options);
  return wrapped as T;
}

function wrapTool(toolName: string, tool: AnySdkTool, options: JournalToolsOptions): AnySdkTool {
  const execute = tool.execute;
  if (!execute) return tool;
  const retrySafe = options.idempotent?.includes(toolName) === true;
  const approval = tool.needsApproval;
  const journaled: Execute = (input: unknown, sdk: ToolExecutionOptions) => executeJournaled({ ...options, toolName, retrySafe, approval, execute }, input, sdk);
  return { ...tool, execute: journaled, ...(approval === undefined ? {} : { needsApproval: approvalGate(options, toolName, approval) }) } as AnySdkTool;
}

interface Wrapped extends JournalToolsOptions {
  toolName: string;
  retrySafe: boolean;
  approval: NeedsApproval | undefined;
  execute: Execute;
}

/** needsApproval: false once a person decided in the journal (execute then follows the decision); else the tool's own rule, pausing the run. */
function approvalGate(options: JournalToolsOptions, toolName: string, needsApproval: NeedsApproval): NeedsApproval {
  return async (input: unknown, sdk: Parameters<Exclude<NeedsApproval, boolean>>[1]) => {
    const run = currentRun(options.store, options.runId);
    const { name } = await run.locate(sdk.toolCallId);
    if (run.get(resultName(name)) || (await decision(run, name))) return false;
    const asks = typeof needsApproval === "function" ? await needsApproval(input as never, sdk) : needsApproval;
    if (asks && run.mode === "record") {
      const pause = new PendingApproval(options.runId, approvalName(name), toolName, input, sdk.toolCallId);
      await options.store.setStatus(options.runId, { status: "paused", pause: pause.state() });
    }
    return asks;
  };
}

/** Whether the tool's own rule asks for approval of this call. */
async function needed(rule: NeedsApproval, input: unknown, sdk: ToolExecutionOptions): Promise<boolean> {
  if (typeof rule === "boolean") return rule;
  return rule(input as never, { toolCallId: sdk.toolCallId, messages: sdk.messages, experimental_context: sdk.experimental_context });
}

/** The approval record of a call, read from the store: a person may have written it since the session loaded. */
async function decision(run: AiSdkRun, name: string): Promise<ApprovalPayload | undefined> {
  const record = run.get(approvalName(name)) ?? (await run.store.record(run.runId, approvalName(name)));
  if (record) run.records.set(record.name, record);
  return record?.kind === "approval" ? (record.payload as ApprovalPayload) : undefined;
}

async function executeJournaled(tool: Wrapped, input: unknown, sdk: ToolExecutionOptions): Promise<unknown> {
  const run = currentRun(tool.store, tool.runId);
  const located = await run.locate(sdk.toolCallId);
  const recorded = run.get(resultName(located.name));
  if (recorded) return served(recorded.payload as ToolResultPayload);
  if (run.mode === "replay") {
    // The AI SDK would hand this to the model as a tool error: the next model call raises it instead.
    const error = new NoRecordedOutputError(tool.runId, 0, undefined, located.name);
    run.halted = error;
    throw error;
  }
  const finish = (outcome: Omit<Outcome, "located" | "args">) => finishCall(run, { ...outcome, located, args: input });
  if (tool.approval !== undefined) {
    const decided = await decision(run, located.name);
    if (decided && !decided.approved) return served(await finish({ result: { error: `denied by ${decided.by}${decided.reason ? `: ${decided.reason}` : ""}` }, isError: true }));
    // Approved through the AI SDK's own flow (a tool-approval-response): the journal says so too.
    if (!decided && (await needed(tool.approval, input, sdk))) {
      await run.append(approvalName(located.name), "approval", { toolCallId: sdk.toolCallId, toolName: tool.toolName, approved: true, by: "ai-sdk", at: new Date().toISOString() });
    }
  }
  const idempotencyKey = stableHash({ runId: tool.runId, call: located.name, tool: tool.toolName, args: input });
  const early = await claimAttempt(run, tool, located, input, idempotencyKey);
  if (early) return served(await finish(early));
  const started = Date.now();
  let result: unknown;
  try {
    result = await lastValue(await tool.execute(input as never, { ...sdk, idempotencyKey, runId: tool.runId, callName: located.name } as JournaledToolOptions));
  } catch (error) {
    // Cut off by an abort: whether it took effect is unknown, so no result is recorded.
    if (sdk.abortSignal?.aborted) throw error;
    await finish({ result: { error: errorMessage(error) }, isError: true, threw: true, durationMs: Date.now() - started });
    throw error;
  }
  return served(await finish({ result, isError: false, durationMs: Date.now() - started }));
}

/**
 * Writes the attempt, or decides what a recorded attempt without a result means: a halt, a
 * person's resolution (returned as the call's outcome), or a retry (its marker written first).
 */
async function claimAttempt(run: AiSdkRun, tool: Wrapped, located: LocatedCall, args: unknown, idempotencyKey: string): Promise<Omit<Outcome, "located" | "args"> | undefined> {
  const { name } = located;
  const halt = async (): Promise<never> => {
    const signal = new ResumeHalt(tool.runId, attemptName(name), tool.toolName, args);
    run.halted = signal;
    await tool.store.setStatus(tool.runId, { status: "paused", pause: signal.state() });
    throw signal;
  };
  if (!run.get(attemptName(name))) {
    const attempt: AttemptPayload = { toolCallId: located.call.toolCallId, toolName: tool.toolName, args, idempotencyKey };
    const { created } = await run.append(attemptName(name), "attempt", attempt);
    // Another driver attempted this call at the same time: its outcome is unknown to us.
    if (!created && !tool.retrySafe) return halt();
    return undefined;
  }
  if (tool.retrySafe) return undefined;
  await run.load(true);
  const { n, resolution } = openResolution(run.records, name);
  if (!resolution) return halt();
  if (resolution.outcome === "succeeded") return { result: resolution.result ?? null, isError: false };
  if (resolution.outcome === "failed") {
    return { result: { error: `${tool.toolName} did not complete (resolved by ${resolution.by}${resolution.reason ? `: ${resolution.reason}` : ""})` }, isError: true };
  }
  const { created } = await run.append(retryName(name, n), "signal", { type: "retry", resolution: n });
  if (!created) return halt();
  return undefined;
}

interface Outcome {
  located: LocatedCall;
  args: unknown;
  result: unknown;
  isError: boolean;
  threw?: boolean;
  durationMs?: number;
}

async function finishCall(run: AiSdkRun, outcome: Outcome): Promise<ToolResultPayload> {
  const { located, args, result, isError, threw = false, durationMs = 0 } = outcome;
  const payload: ToolResultPayload = {
    toolCallId: located.call.toolCallId,
    toolName: located.call.toolName,
    args,
    result: result === undefined ? null : result,
    isError,
    durationMs,
    ...(threw ? { threw: true } : {}),
  };
  const { record } = await run.append(resultName(located.name), "tool_result", payload);
  return record.payload as ToolResultPayload;
}

/** A recorded result as the tool's return; a recorded error is thrown again with its message, as the AI SDK saw it. */
function served(payload: ToolResultPayload): unknown {
  if (!payload.isError) return payload.result;
  const error = (payload.result as { error?: unknown } | null)?.error;
  throw new Error(typeof error === "string" ? error : JSON.stringify(payload.result));
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : typeof error === "string" ? error : JSON.stringify(error);
}

/** A streaming tool (an async iterable of preliminary results): its last value is the result. */
export async function lastValue(value: unknown): Promise<unknown> {
  if (typeof value !== "object" || value === null || !(Symbol.asyncIterator in value)) return value;
  let last: unknown;
  for await (const item of value as AsyncIterable<unknown>) last = item;
  return last;
}
