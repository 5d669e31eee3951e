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
  | "answer_too_large"
  | "bad_fork"
  | "bad_try"
  | "bad_input"
  | "body_too_large"
  | "cli"
  | "config"
  | "database_locked"
  | "database_owner_lost"
  | "database_unreachable"
  | "import_interrupted"
  | "import_too_large"
  | "input_mismatch"
  | "invalid_record"
  | "job_timeout"
  | "lease_held"
  | "lease_lost"
  | "length_mismatch"
  | "max_turns"
  | "missing_agent"
  | "missing_model"
  | "missing_tools"
  | "model_call"
  | "no_memory_context"
  | "no_recorded_input"
  | "no_recorded_output"
  | "non_finite_number"
  | "not_found"
  | "not_waiting"
  | "paused"
  | "payload_too_large"
  | "pool_busy"
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
  | "stopped"
  | "trace_conflict"
  | "unsupported_media_type"
  | "worker_failed"
  | "worker_timeout"
  | "worker_unavailable";

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

/** An answer that would pass the response budget whole, and has no window to page it by. */
export class AnswerTooLargeError extends BacktrackError {
  constructor(
    readonly what: string,
    readonly bytes: number,
    readonly limitBytes: number,
    hint: string,
  ) {
    super("answer_too_large", `${what} is ${bytes} bytes, over the ${limitBytes} bytes an answer may hold: ${hint}`);
  }
}

/** A payload larger than the store's limit; nothing was written. */
export class PayloadTooLargeError extends BacktrackError {
  constructor(
    readonly runId: string,
    readonly recordName: string,
    readonly bytes: number,
    readonly limitBytes: number,
  ) {
    super("payload_too_large", `record "${recordName}" of run "${runId}" is ${bytes} bytes, over the ${limitBytes}-byte limit; nothing was written`);
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

/** An import names a run this database already has (or another import of it won): nothing was imported. */
export class RunExistsError extends BacktrackError {
  constructor(readonly runId: string) {
    super("run_exists", `run "${runId}" already exists in this database; nothing was imported (backtrack delete removes a run)`);
  }
}

/** A body over the import limit; nothing was read into the database. */
export class ImportTooLargeError extends BacktrackError {
  constructor(
    readonly bytes: number,
    readonly limitBytes: number,
  ) {
    super(
      "import_too_large",
      `the import is ${bytes} bytes, over the ${limitBytes}-byte (${limitBytes / 1024 / 1024} MiB) limit of the HTTP API; nothing was imported (backtrack import reads files of any size)`,
    );
  }
}

/** A body whose length differs from its Content-Length (cut short on the way): nothing was imported. */
export class LengthMismatchError extends BacktrackError {
  constructor(
    readonly declaredBytes: number,
    readonly receivedBytes: number,
  ) {
    super("length_mismatch", `the body is ${receivedBytes} bytes but Content-Length said ${declaredBytes}; nothing was imported`);
  }
}

/** A JSON number that does not fit a double (1e400): JSON would store it as null, so it is refused. */
export class NonFiniteNumberError extends BacktrackError {
  constructor(
    readonly path: string,
    readonly where?: string,
  ) {
    super("non_finite_number", `${where ? `${where}: ` : ""}the number at ${path} is too large to store (it overflows to Infinity); nothing was written`);
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

/** An OTLP trace write lost a race with another writer of the same trace or run: read again and retry. */
export class TraceConflictError extends BacktrackError {
  constructor(
    readonly traceIds: readonly string[],
    options?: { cause?: unknown },
  ) {
    super("trace_conflict", `another writer changed trace ${traceIds.join(", ")} meanwhile`, options);
  }
}
