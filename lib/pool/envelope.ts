/** A task's answer as it crosses back from a worker (worker.ts makes it, pool.ts opens it). */
import type { ErrorCode } from "../journal/errors";
import type * as tasks from "./tasks";

export type Envelope<Output> = { ok: true; value: Output } | { ok: false; code: ErrorCode | "internal"; message: string; fields?: ErrorFields };

/** A typed error's own fields (numbers, strings), so the asking thread can raise the same error again. */
export type ErrorFields = Record<string, string | number | boolean | null>;

/** The tasks by name, as the pool runs them. */
export type Tasks = typeof tasks;
export type TaskName = keyof Tasks;
export type TaskInput<Name extends TaskName> = Parameters<Tasks[Name]>[0];
export type TaskOutput<Name extends TaskName> = Awaited<ReturnType<Tasks[Name]>>;
