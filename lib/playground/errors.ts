/** The playground's typed error. It is raised before any try runs or anything is written. */
import { BacktrackError } from "../journal/errors";

/** A try that cannot be made as asked: `at` is not a model turn, `times` is out of range, an edit does not fit. */
export class TryError extends BacktrackError {
  constructor(
    readonly runId: string,
    readonly at: number,
    readonly reason: string,
  ) {
    super("bad_try", `cannot try step ${at} of run "${runId}": ${reason}; nothing was run`);
  }
}
