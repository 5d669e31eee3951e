/** The regression area's typed errors (each a BacktrackError: stable code, typed fields, cause). */
import { BacktrackError } from "../journal/errors";

/** The replay could not be driven with what is known: tools the source used are not available. */
export class ReplayToolsError extends BacktrackError {
  constructor(
    readonly runId: string,
    readonly agent: string,
    readonly missing: string[],
  ) {
    super("missing_tools", `run "${runId}" used tools ${missing.join(", ")} of agent "${agent}", which is not registered: pass \`tools\` or a registry that has the agent`);
  }
}

/** The replay's id names a run that already exists and is not a replay of the same source. */
export class ReplayTargetExistsError extends BacktrackError {
  constructor(
    readonly newRunId: string,
    readonly sourceRunId: string,
  ) {
    super("run_exists", `run "${newRunId}" already exists and is not a replay of "${sourceRunId}": choose another id`);
  }
}

/** The replayed drive failed; `cause` holds why (NoRecordedOutputError when a recorded replay diverged). */
export class ReplayFailedError extends BacktrackError {
  constructor(
    readonly sourceRunId: string,
    readonly newRunId: string,
    cause: unknown,
  ) {
    super("replay_failed", `the replay of "${sourceRunId}" as "${newRunId}" failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** `--check` pins a complete run; this one is not complete. */
export class RunNotCompleteError extends BacktrackError {
  constructor(
    readonly runId: string,
    readonly status: string,
  ) {
    super("bad_input", `run "${runId}" is ${status}, not complete: a check replays a complete run against its recorded outputs`);
  }
}
