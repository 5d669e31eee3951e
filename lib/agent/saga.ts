/**
 * Sagas (agent.runSaga): a run that is all or nothing. When a tool's execute throws (or the run
 * exceeds its turns), the run records `run:saga:abort`, then undoes every completed call whose
 * tool has `compensate`, newest first. Each compensation is at most once: an `attempt` record is
 * written before it and its outcome after it; a compensation cut off in between halts the run
 * (ResumeHalt) unless the tool declares `safety.idempotencyKey`. The run then ends with
 * run:complete (nothing is left to do) and SagaAbortedError. Sub-agent runs are not compensated.
 */
import { stableHash } from "../journal/canonical";
import { BacktrackError } from "../journal/errors";
import { RUN_COMPLETE } from "../journal/names";
import type { JournalRecord } from "../journal/types";
import { callContext, type CallHost } from "./call-context";
import type { ToolResultPayload, ValuePayload } from "./payloads";
import { isPause, ResumeHalt } from "./pauses";
import { stoppedAtPause } from "./resume-rules";
import type { AnyTool } from "./tool";

export const SAGA_ABORT = "run:saga:abort";
const compensationName = (call: string): string => `run:saga:${call}`;

interface SagaAbortPayload {
  type: "saga-abort";
  cause: string;
  /** The call that failed, when a tool failed. */
  call?: string;
}

export interface CompensationOutcome {
  call: string;
  toolName: string;
  ok: boolean;
  error?: string;
}

/** The saga failed and was rolled back as far as its tools allow. */
export class SagaAbortedError extends BacktrackError {
  constructor(
    readonly runId: string,
    readonly reason: string,
    readonly compensated: CompensationOutcome[],
    /** Completed calls whose tool has no compensate. */
    readonly uncompensated: string[],
  ) {
    const failed = compensated.filter((outcome) => !outcome.ok).length;
    super(
      "saga_aborted",
      `saga "${runId}" aborted (${reason}); ${compensated.length - failed} compensated` +
        `${failed ? `, ${failed} compensations failed` : ""}${uncompensated.length ? `, ${uncompensated.length} calls without compensation` : ""}`,
    );
  }
}

/** Thrown inside the loop when a saga step fails; the drive turns it into a rollback. */
export class SagaTrip extends Error {
  constructor(
    readonly reason: string,
    readonly call?: string,
  ) {
    super(reason);
  }
}

export interface SagaHost extends CallHost {
  readonly tools: ReadonlyMap<string, AnyTool>;
  /** The run idempotency keys are derived from (a fork's chain's first run; else runId). */
  readonly keyRunId?: string;
  records(): JournalRecord[];
}

const RESULT_NAME = /^(turn:\d+:call:\d+):result$/;

export async function rollback(host: SagaHost, trip: { reason: string; call?: string }): Promise<never> {
  const abort = await host.once<SagaAbortPayload>(SAGA_ABORT, "signal", () => ({ type: "saga-abort", cause: trip.reason, ...(trip.call ? { call: trip.call } : {}) }));
  const completed = host
    .records()
    .filter((record) => record.kind === "tool_result" && RESULT_NAME.test(record.name) && (record.payload as ToolResultPayload).isError !== true)
    .sort((a, b) => b.seq - a.seq);
  const outcomes: CompensationOutcome[] = [];
  const uncompensated: string[] = [];
  for (const record of completed) {
    const call = RESULT_NAME.exec(record.name)?.[1] as string;
    const payload = record.payload as ToolResultPayload;
    const definition = host.tools.get(payload.toolName);
    if (!definition?.compensate) {
      uncompensated.push(call);
      continue;
    }
    outcomes.push(await compensate(host, definition, call, payload));
  }
  await host.once<ValuePayload>(RUN_COMPLETE, "value", () => ({
    value: { text: `saga aborted: ${abort.cause}`, saga: { aborted: true, cause: abort.cause, compensated: outcomes, uncompensated } },
  }));
  throw new SagaAbortedError(host.runId, abort.cause, outcomes, uncompensated);
}

async function compensate(host: SagaHost, definition: AnyTool, call: string, payload: ToolResultPayload): Promise<CompensationOutcome> {
  const name = compensationName(call);
  const done = host.has(`${name}:compensated`) ? await host.lookup(`${name}:compensated`) : undefined;
  if (done) return (done.payload as ValuePayload).value as CompensationOutcome;
  if (host.has(`${name}:attempt`)) {
    if (!definition.safety?.idempotencyKey && !stoppedAtPause(host.records(), name)) throw new ResumeHalt(host.runId, `${name}:attempt`, definition.name, payload.args);
  } else {
    host.signal.throwIfAborted();
    const { created } = await host.append(`${name}:attempt`, "attempt", { toolCallId: payload.toolCallId, toolName: definition.name, args: payload.args, compensates: call });
    // Another driver is compensating this call right now: its outcome is unknown to us.
    if (!created && !definition.safety?.idempotencyKey) throw new ResumeHalt(host.runId, `${name}:attempt`, definition.name, payload.args);
  }
  const idempotencyKey = stableHash({ runId: host.keyRunId ?? host.runId, compensate: call, args: payload.args });
  let outcome: CompensationOutcome;
  try {
    await definition.compensate?.(
      payload.args,
      payload.result,
      callContext(host, {
        name,
        toolCallId: payload.toolCallId,
        idempotencyKey,
        childRunIds: [],
        toolName: definition.name,
        args: payload.args,
        retrySafe: definition.safety?.idempotencyKey === true,
      }),
    );
    outcome = { call, toolName: definition.name, ok: true };
  } catch (error) {
    if (isPause(error)) throw error;
    outcome = { call, toolName: definition.name, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  await host.once<ValuePayload>(`${name}:compensated`, "value", () => ({ step: `compensate ${definition.name}`, value: outcome }));
  return outcome;
}
