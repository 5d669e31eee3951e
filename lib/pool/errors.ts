/**
 * The projection pool's errors. Each says what happened to the one request it fails; the pool
 * itself stays up, and a worker that died or ran too long is replaced before the next task.
 */
import { BacktrackError, type ErrorCode } from "../journal/errors";

/** The pool's queue is full: the server answers 503 with Retry-After rather than queue without end. */
export class PoolBusyError extends BacktrackError {
  readonly retryAfterSeconds = 1;
  constructor(readonly queued: number) {
    super("pool_busy", `the server is busy building other answers (${queued} waiting); try again in a moment`);
  }
}

/** The worker building this answer stopped (it crashed or was killed). */
export class WorkerFailedError extends BacktrackError {
  readonly retryAfterSeconds = 1;
  constructor(
    readonly task: string,
    options?: { cause?: unknown },
  ) {
    super("worker_failed", `the worker building this answer (${task}) stopped; try again`, options);
  }
}

/** The task ran past its time limit: its worker was stopped. */
export class WorkerTimeoutError extends BacktrackError {
  readonly retryAfterSeconds = 5;
  constructor(
    readonly task: string,
    readonly limitMs: number,
  ) {
    super("worker_timeout", `building this answer (${task}) took longer than ${limitMs} ms and was stopped; try again later`);
  }
}

/** No worker can start: the worker bundle is missing or does not load. */
export class WorkerUnavailableError extends BacktrackError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("worker_unavailable", message, options);
  }
}

/** A typed error a task raised in its worker, raised again here with the same code and message. */
export class PoolTaskError extends BacktrackError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly task: string,
    /** The error's own fields as the worker had them (ErrorFields of envelope.ts). */
    readonly fields: Record<string, string | number | boolean | null> = {},
  ) {
    super(code, message);
  }
}
