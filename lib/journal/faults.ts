/**
 * Fault injection: a hook in every store (JournalOptions.faults) that the crash tests use to stop
 * a "process" at a chosen durable write. A hook that throws marks the store crashed: every later
 * call fails with the same error, as nothing runs after a real crash, until `restart()` (which
 * stands for a new process over the same data).
 */
import { BacktrackError } from "./errors";
import type { AppendResult, NewRecord } from "./types";

export interface FaultPlan {
  /** Before append number `count` (1-based since the store opened or restarted) reaches the database. */
  beforeWrite?(record: NewRecord, count: number): void;
  /** After append number `count` is durable, before its caller sees the result. */
  afterWrite?(result: AppendResult, count: number): void;
}

export class SimulatedCrashError extends BacktrackError {
  constructor(
    readonly count: number,
    readonly when: "before" | "after",
    readonly recordName: string,
  ) {
    super("simulated_crash", `simulated crash ${when} write ${count} (${recordName})`);
  }
}

/** A plan that crashes once, `when` the `count`-th append happens. */
export function crashAt(count: number, when: "before" | "after" = "before"): FaultPlan {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`crashAt needs a positive integer, got ${count}`);
  return when === "before"
    ? {
        beforeWrite(record, at) {
          if (at === count) throw new SimulatedCrashError(at, "before", record.name);
        },
      }
    : {
        afterWrite(result, at) {
          if (at === count) throw new SimulatedCrashError(at, "after", result.record.name);
        },
      };
}
