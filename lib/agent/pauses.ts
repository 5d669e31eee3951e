/**
 * Durable pauses: a run stops, its state stays in the journal, and a later drive resumes it.
 * Each is a typed signal recognised by a brand (`isPause`), so that recovery can tell a pause (a
 * success: the run waits for its condition) from a genuine fault, across bundles.
 */
import { BacktrackError } from "../journal/errors";
import type { PauseReason, PauseState } from "../journal/types";

const PAUSE = Symbol.for("backtrack.pause");

export abstract class PauseSignal extends BacktrackError {
  readonly [PAUSE] = true;
  abstract readonly reason: PauseReason;

  constructor(
    readonly runId: string,
    message: string,
  ) {
    super("paused", message);
  }

  /** What the run summary shows while the run waits. */
  abstract state(): PauseState;
}

export function isPause(value: unknown): value is PauseSignal {
  return typeof value === "object" && value !== null && PAUSE in value;
}

/** A tool that needs approval was called; an `approval` record under `name` unblocks it. */
export class PendingApproval extends PauseSignal {
  readonly reason = "approval" as const;

  constructor(
    runId: string,
    readonly recordName: string,
    readonly toolName: string,
    readonly args: unknown,
    readonly toolCallId?: string,
  ) {
    super(runId, `run "${runId}" waits for approval of ${toolName}`);
  }

  state(): PauseState {
    return {
      reason: "approval",
      runId: this.runId,
      name: this.recordName,
      message: this.message,
      toolName: this.toolName,
      args: this.args,
      ...(this.toolCallId === undefined ? {} : { toolCallId: this.toolCallId }),
    };
  }
}

/** A tool asked the user a question (`ctx.ask`); an answer recorded under `recordName` resumes it. */
export class Interrupted extends PauseSignal {
  readonly reason = "interrupt" as const;

  constructor(
    runId: string,
    readonly recordName: string,
    readonly question: string,
  ) {
    super(runId, `run "${runId}" asks: ${question}`);
  }

  state(): PauseState {
    return { reason: "interrupt", runId: this.runId, name: this.recordName, message: this.message, question: this.question };
  }
}

/** The run sleeps until `wakeAt` (its `recordName` is the sleep's signal); a waker resumes it then. */
export class Sleeping extends PauseSignal {
  readonly reason = "sleep" as const;

  constructor(
    runId: string,
    readonly recordName: string,
    readonly wakeAt: string,
  ) {
    super(runId, `run "${runId}" sleeps until ${wakeAt}`);
  }

  state(): PauseState {
    return { reason: "sleep", runId: this.runId, name: this.recordName, message: this.message, wakeAt: this.wakeAt };
  }
}

/** A run stopped before a tool call whose going on needs a person: resolved by allowing it, giving its result or failing it. */
abstract class HaltSignal extends PauseSignal {
  readonly reason = "halt" as const;
  /** Which halt this is, when it is not the classic unknown outcome. */
  protected readonly halt?: PauseState["halt"];

  constructor(
    runId: string,
    readonly recordName: string,
    readonly toolName: string,
    readonly args: unknown,
    message: string,
  ) {
    super(runId, message);
  }

  state(): PauseState {
    return {
      reason: "halt",
      runId: this.runId,
      name: this.recordName,
      message: this.message,
      toolName: this.toolName,
      args: this.args,
      ...(this.halt === undefined ? {} : { halt: this.halt }),
    };
  }
}

/**
 * A tool was attempted (its `attempt` record exists) but no result was recorded: it may or may not
 * have run. Running it again could repeat a side effect, so the run halts for a human, unless the
 * tool declares `safety.idempotencyKey`.
 */
export class ResumeHalt extends HaltSignal {
  constructor(runId: string, recordName: string, toolName: string, args: unknown) {
    super(runId, recordName, toolName, args, `run "${runId}" halted: the outcome of ${toolName} is unknown (attempted, no result recorded)`);
  }
}

/**
 * A fork reached an external tool after its fork step without `allowEffects`: the tool did not run
 * (no attempt was written). Resolved like a halt: "retry" allows it, "succeeded" gives its result,
 * "failed" tells the model it failed.
 */
export class ForkEffectHalt extends HaltSignal {
  protected override readonly halt = "fork_effect" as const;

  constructor(runId: string, recordName: string, toolName: string, args: unknown) {
    super(runId, recordName, toolName, args, `fork "${runId}" halted before ${toolName}: it has external effects; allow it, give its result or fail it`);
  }
}
