/**
 * Every error Backtrack raises extends BacktrackError: a stable `code`, typed fields and a `cause`.
 * Errors are recognised by a brand (a global symbol), not only by `instanceof`, because bundles
 * (Next.js server chunks, a library copy in node_modules) each carry their own class objects.
 */
const BRAND = Symbol.for("backtrack.error");

/**
 * Every code a BacktrackError carries, closed: the inspector's HTTP status map is a
 * `Record<ErrorCode, number>`, so a new code does not compile until it has a status.
 */
export type ErrorCode =
  | "already_decided"
  | "bad_input"
  | "cli"
  | "config"
  | "database_locked"
  | "database_unreachable"
  | "input_mismatch"
  | "invalid_record"
  | "job_timeout"
  | "lease_held"
  | "lease_lost"
  | "max_turns"
  | "missing_tools"
  | "model_call"
  | "no_memory_context"
  | "no_recorded_input"
  | "no_recorded_output"
  | "not_found"
  | "not_waiting"
  | "paused"
  | "payload_too_large"
  | "read_only_state"
  | "rebuild_mismatch"
  | "recovery_failed"
  | "replay_failed"
  | "reserved_name"
  | "resume_failed"
  | "run_exists"
  | "saga_aborted"
  | "session_exists"
  | "simulated_crash"
  | "stale_session"
  | "stopped";

export class BacktrackError extends Error {
  readonly [BRAND] = true;
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }

  static is(value: unknown, code?: ErrorCode): value is BacktrackError {
    if (typeof value !== "object" || value === null || !(BRAND in value)) return false;
    return code === undefined || (value as BacktrackError).code === code;
  }
}

export function isBacktrackError(value: unknown, code?: ErrorCode): value is BacktrackError {
  return BacktrackError.is(value, code);
}

/** A payload larger than the store's limit; nothing was written. */
export class PayloadTooLargeError extends BacktrackError {
  constructor(
    readonly runId: string,
    readonly recordName: string,
    readonly bytes: number,
    readonly limitBytes: number,
  ) {
    super(
      "payload_too_large",
      `record "${recordName}" of run "${runId}" is ${bytes} bytes, over the ${limitBytes}-byte limit; nothing was written`,
    );
  }
}

/** A record that does not have the journal's shape (an import line, an API body). */
export class InvalidRecordError extends BacktrackError {
  constructor(
    message: string,
    readonly where?: string,
    options?: { cause?: unknown },
  ) {
    super("invalid_record", where ? `${where}: ${message}` : message, options);
  }
}

export class RunNotFoundError extends BacktrackError {
  constructor(readonly runId: string) {
    super("not_found", `no run with id "${runId}"`);
  }
}

export class ReservedNameError extends BacktrackError {
  constructor(readonly recordName: string) {
    super("reserved_name", `"${recordName}" is a reserved record name; choose another step name`);
  }
}

export class ConfigError extends BacktrackError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("config", message, options);
  }
}

export class BadInputError extends BacktrackError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("bad_input", message, options);
  }
}

/** Another process holds the embedded database folder and cannot be reached. */
export class DatabaseLockedError extends BacktrackError {
  constructor(
    readonly folder: string,
    readonly ownerPid: number | undefined,
    message: string,
  ) {
    super("database_locked", message);
  }
}

export class DatabaseUnreachableError extends BacktrackError {
  constructor(
    readonly target: string,
    options?: { cause?: unknown },
  ) {
    const reason = options?.cause instanceof Error ? `: ${options.cause.message}` : "";
    super("database_unreachable", `cannot reach the database at ${target}${reason}`, options);
  }
}
