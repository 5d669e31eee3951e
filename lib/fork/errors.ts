/** The fork area's typed errors. Each is raised before anything is written. */
import { BacktrackError } from "../journal/errors";

/** A fork that cannot be made as asked: `at` out of range, or an edit that does not fit the record there. */
export class ForkError extends BacktrackError {
  constructor(
    readonly runId: string,
    readonly at: number,
    readonly reason: string,
  ) {
    super("bad_fork", `cannot fork run "${runId}" at step ${at}: ${reason}; nothing was written`);
  }
}

/** The model a fork would call after `at` is not registered (by default, the one the run was recorded with). */
export class MissingModelError extends BacktrackError {
  constructor(
    readonly runId: string,
    readonly model: string,
    readonly known: string[],
  ) {
    super(
      "missing_model",
      `run "${runId}" would go on live under model "${model}", which is not registered (known: ${known.join(", ") || "none"}); pass a model; nothing was written`,
    );
  }
}
