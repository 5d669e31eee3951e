/** The suites area's typed errors (each a BacktrackError: stable code, typed fields, cause). */
import { BacktrackError } from "../journal/errors";

/** A suite name is a URL path segment and a file name: letters, digits, `.`, `_`, `-`, at most 100. */
export const SUITE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
export const MAX_NOTE_LENGTH = 2_000;
export const MAX_PINNED_BY_LENGTH = 200;

export class BadSuiteNameError extends BacktrackError {
  constructor(readonly suite: string) {
    super("bad_input", `suite name ${JSON.stringify(suite.slice(0, 120))} is not valid: use letters, digits, ".", "_" and "-" (at most 100, starting with a letter or digit)`);
  }
}

/** `backtrack test` (or "Run suite") on a suite with no pins: nothing would be tested. */
export class EmptySuiteError extends BacktrackError {
  constructor(readonly suite: string) {
    super("not_found", `suite "${suite}" has no pinned runs: pin one with \`backtrack pin <run> --suite ${suite}\``);
  }
}

export class BatchNotFoundError extends BacktrackError {
  constructor(readonly batchId: string) {
    super("not_found", `no batch with id "${batchId}"`);
  }
}

export class PinNotFoundError extends BacktrackError {
  constructor(
    readonly suite: string,
    readonly runId: string,
  ) {
    super("not_found", `run "${runId}" is not pinned in suite "${suite}"`);
  }
}

/** A suite file (`backtrack suite export`) that cannot be imported; nothing was imported. */
export class BadSuiteFileError extends BacktrackError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("invalid_record", message, options);
  }
}

export function checkSuiteName(suite: string): string {
  if (!SUITE_NAME.test(suite)) throw new BadSuiteNameError(suite);
  return suite;
}
