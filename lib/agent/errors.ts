/**
 * The agent loop's own typed errors (each a BacktrackError: stable code, typed fields). They live
 * apart from agent.ts so that the loop, which throws them, does not import the Agent class.
 */
import { BacktrackError } from "../journal/errors";

/** The run needed more model turns than the agent's `maxTurns`. */
export class MaxTurnsError extends BacktrackError {
  constructor(
    readonly runId: string,
    readonly maxTurns: number,
  ) {
    super("max_turns", `run "${runId}" needed more than ${maxTurns} model turns`);
  }
}

/** `run(runId, input)` on a run whose recorded run:start holds a different input. */
export class InputMismatchError extends BacktrackError {
  constructor(readonly runId: string) {
    super("input_mismatch", `run "${runId}" was started with a different input; resume it without an input or use a new run id`);
  }
}

/**
 * The run has no usable run:start record, so its input and agent are unknown: recovery cannot
 * resume it (`use: "resume"`) and replayRun cannot run it again (`use: "replay"`).
 */
export class NoRecordedInputError extends BacktrackError {
  constructor(
    readonly runId: string,
    readonly use: "resume" | "replay",
  ) {
    super(
      "no_recorded_input",
      use === "resume"
        ? `run "${runId}" has no run:start record: its input and agent are unknown, so it cannot be resumed`
        : `run "${runId}" has no recorded input (run:start): it cannot be replayed`,
    );
  }
}
