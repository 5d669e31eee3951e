/** Recovery's errors: leases held by another process, leases lost mid-drive, and joined faults. */
import { BacktrackError } from "../journal/errors";
import type { RunStatus } from "../journal/types";

/** Another holder has a live lease on the run: it was not driven here. */
export class LeaseHeldError extends BacktrackError {
  constructor(readonly runId: string) {
    super("lease_held", `run "${runId}" is leased by another holder`);
  }
}

/** The lease could not be renewed (another holder took the run over, or the store failed): the drive was cancelled. */
export class LeaseLostError extends BacktrackError {
  constructor(
    readonly runId: string,
    readonly holder: string,
    options?: { cause?: unknown },
  ) {
    super("lease_lost", `lost the lease on run "${runId}" (holder ${holder}); its drive was cancelled`, options);
  }
}

export interface RunFailure {
  runId: string;
  error: unknown;
}

/** The genuine faults of a recovery pass (pauses are not faults), joined into one error. */
export class RecoveryError extends BacktrackError {
  constructor(readonly failures: RunFailure[]) {
    const first = failures[0];
    const firstText = first ? `${first.runId}: ${first.error instanceof Error ? first.error.message : String(first.error)}` : "";
    super("recovery_failed", `${failures.length} run${failures.length === 1 ? "" : "s"} failed to recover (${firstText}${failures.length > 1 ? "; …" : ""})`, {
      cause: new AggregateError(failures.map((failure) => failure.error)),
    });
  }
}

/** A decision (approve, answer) for a run that is not waiting for one. */
const WAITED_FOR = { approval: "an approval", interrupt: "an answer", halt: "a resolution of an unknown outcome" } as const;

export class NotWaitingError extends BacktrackError {
  constructor(
    readonly runId: string,
    readonly expected: "approval" | "interrupt" | "halt",
    readonly status: RunStatus,
    readonly waitingFor: string | null,
  ) {
    super("not_waiting", `run "${runId}" is not waiting for ${WAITED_FOR[expected]} (it is ${status}${waitingFor ? `, waiting for ${waitingFor}` : ""})`);
  }
}

/** A decision (approve, answer) for a run that someone already decided: the first decision stands. */
export class AlreadyDecidedError extends BacktrackError {
  constructor(
    readonly runId: string,
    readonly by: string,
  ) {
    super("already_decided", `run "${runId}" was already decided by ${by}; the first decision stands`);
  }
}

/**
 * A run resumed after a decision ended with a genuine fault (not a pause). The decision stays
 * recorded: the run is unfinished, and recovery resumes it again once the fault is fixed.
 */
export class ResumeFailedError extends BacktrackError {
  constructor(
    readonly runId: string,
    readonly reason: string,
  ) {
    super("resume_failed", `run "${runId}" failed when resumed: ${reason}`);
  }
}
