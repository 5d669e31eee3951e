/** The memory area's typed errors (each a BacktrackError: stable code, typed fields, cause). */
import { BacktrackError } from "../journal/errors";

/** stripMemoryContext on a run without a usable :memctx record: nothing can be stripped honestly. */
export class NoMemoryContextError extends BacktrackError {
  constructor(
    readonly runId: string,
    readonly reason: string,
  ) {
    super("no_memory_context", `run "${runId}" has no usable :memctx provenance record (${reason}): a memory-off replay can only strip what was provably injected`);
  }
}
