/**
 * Human decisions that unblock paused runs: approve (or deny) a tool call, answer an interrupt,
 * resolve a call whose outcome is unknown (the run halted).
 * Each is one journal record in the run that waits (a sub-agent's pause names it), written under
 * the name the pause gave; the first decision wins. Resuming the run is the caller's next step
 * (the CLI resumes the root run through the registry and waits; the inspector submits a `resume` job).
 */
import { RunNotFoundError } from "../journal/errors";
import type { Journal } from "../journal/ports";
import type { JournalRecord, PauseState } from "../journal/types";
import type { AnswerPayload, ApprovalPayload, ResolutionPayload } from "../agent/payloads";
import { resolutionName, retryName } from "../journal/names";
import { NotWaitingError } from "./errors";

export interface Decided<P> {
  /** The run the decision was written to (the one that waits). */
  runId: string;
  record: JournalRecord<P>;
  /** false when a decision had been recorded before: `record` is that earlier one. */
  created: boolean;
}

async function waiting(store: Journal, runId: string, reason: "approval" | "interrupt" | "halt"): Promise<PauseState & { name: string }> {
  const run = await store.run(runId);
  if (!run) throw new RunNotFoundError(runId);
  const pause = run.pause;
  if (run.status !== "paused" || pause?.reason !== reason || !pause.name) {
    throw new NotWaitingError(runId, reason, run.status, pause ? pause.reason : null);
  }
  return { ...pause, name: pause.name };
}

export interface ApprovalDecision {
  approved: boolean;
  by: string;
  reason?: string;
  /** Default: now. */
  at?: Date;
}

/** Records an approval or a denial for the tool call `runId` (or its sub-agent) waits on. */
export async function approve(store: Journal, runId: string, decision: ApprovalDecision): Promise<Decided<ApprovalPayload>> {
  const pause = await waiting(store, runId, "approval");
  const payload: ApprovalPayload = {
    toolCallId: pause.toolCallId ?? "",
    toolName: pause.toolName ?? "",
    approved: decision.approved,
    by: decision.by,
    at: (decision.at ?? new Date()).toISOString(),
    ...(decision.reason ? { reason: decision.reason } : {}),
  };
  const { record, created } = await store.append({ runId: pause.runId, name: pause.name, kind: "approval", payload });
  return { runId: pause.runId, record, created };
}

/** Records the answer to the question `runId` (or its sub-agent) asked. */
export async function answer(store: Journal, runId: string, text: string, options: { by: string; at?: Date }): Promise<Decided<AnswerPayload>> {
  const pause = await waiting(store, runId, "interrupt");
  const payload: AnswerPayload = { type: "answer", text, by: options.by, at: (options.at ?? new Date()).toISOString() };
  const { record, created } = await store.append({ runId: pause.runId, name: pause.name, kind: "signal", payload });
  return { runId: pause.runId, record, created };
}

export interface Resolution {
  /** "succeeded": it took effect, with `result`; "failed": it did not, the model is told; "retry": it did not, run it once more. */
  outcome: ResolutionPayload["outcome"];
  result?: unknown;
  reason?: string;
  by: string;
  /** Default: now. */
  at?: Date;
}

const ATTEMPT_SUFFIX = ":attempt";

/**
 * Records how the call `runId` (or its sub-agent) halted on ended, as a person found out downstream.
 * Written as resolution n of that call, n - 1 being the retries made so far (see resume-rules.ts).
 */
export async function resolveHalt(store: Journal, runId: string, resolution: Resolution): Promise<Decided<ResolutionPayload>> {
  const pause = await waiting(store, runId, "halt");
  const call = pause.name.endsWith(ATTEMPT_SUFFIX) ? pause.name.slice(0, -ATTEMPT_SUFFIX.length) : pause.name;
  // Point reads of the retry markers, never the run's whole history (a halted run may be long).
  let n = 1;
  while (await store.record(pause.runId, retryName(call, n))) n += 1;
  const payload: ResolutionPayload = {
    type: "resolution",
    outcome: resolution.outcome,
    ...(resolution.outcome === "succeeded" ? { result: resolution.result ?? null } : {}),
    ...(resolution.reason ? { reason: resolution.reason } : {}),
    by: resolution.by,
    at: (resolution.at ?? new Date()).toISOString(),
  };
  const { record, created } = await store.append({ runId: pause.runId, name: resolutionName(call, n), kind: "signal", payload });
  return { runId: pause.runId, record, created };
}

/** The run at the top of `runId`'s tree: what to drive to resume it. */
export async function rootRunOf(store: Journal, runId: string): Promise<string> {
  const seen = new Set<string>();
  let current = runId;
  for (;;) {
    const run = await store.run(current);
    if (!run) throw new RunNotFoundError(current);
    if (run.parentRunId === null || seen.has(run.parentRunId)) return current;
    seen.add(current);
    current = run.parentRunId;
  }
}
