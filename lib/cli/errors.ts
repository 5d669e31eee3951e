/**
 * How the command line reports a failure: one line `backtrack: …` per error and an exit code.
 * 2: bad input or environment (a Backtrack error, an unreachable database, a file or folder the
 * OS refuses). 1: a failed check, or an unexpected error (a bug: --verbose prints its stack).
 * Stacks are printed only with --verbose.
 */
import { isBacktrackError } from "../journal/errors";
import { CliError, EXIT_BAD_INPUT, EXIT_CHECK_FAILED } from "./context";

export interface Failure {
  /** The lines to print on stderr (one without --verbose). */
  lines: string[];
  exitCode: number;
}

/** Error codes of the OS: a file, folder or network refused us; the environment, not Backtrack. */
const ENVIRONMENT_CODES = /^E[A-Z0-9]+$/;

export function describeFailure(error: unknown, verbose: boolean): Failure {
  const { message, exitCode } = summarize(error);
  const lines = [`backtrack: ${oneLine(message)}`];
  if (verbose) lines.push(...stacks(error));
  else if (exitCode === EXIT_CHECK_FAILED && !isBacktrackError(error)) lines[0] += " (--verbose prints the stack)";
  return { lines, exitCode };
}

function summarize(error: unknown): { message: string; exitCode: number } {
  if (error instanceof CliError) return { message: error.message, exitCode: error.exitCode };
  if (isBacktrackError(error)) {
    // Bad input (unknown run, malformed file, locked or unreachable database): 2. A failed check: 1.
    return { message: error.message, exitCode: error.code === "no_recorded_output" ? EXIT_CHECK_FAILED : EXIT_BAD_INPUT };
  }
  const code = (error as { code?: unknown } | null)?.code;
  const text = error instanceof Error ? withCauses(error) : String(error);
  if (typeof code === "string" && ENVIRONMENT_CODES.test(code)) return { message: text, exitCode: EXIT_BAD_INPUT };
  const name = error instanceof Error ? error.name : typeof error;
  return { message: `unexpected error (${name}): ${text}`, exitCode: EXIT_CHECK_FAILED };
}

/** "fetch failed: connect ECONNREFUSED 127.0.0.1:1": the causes' messages say what the top one hides. */
function withCauses(error: Error): string {
  const parts = [error.message];
  let cause: unknown = error.cause;
  for (let depth = 0; cause instanceof Error && depth < 3; depth += 1) {
    if (!parts.includes(cause.message)) parts.push(cause.message);
    cause = cause.cause;
  }
  return parts.join(": ");
}

function stacks(error: unknown): string[] {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 5; depth += 1) {
    const text = current instanceof Error ? (current.stack ?? current.message) : String(current);
    lines.push(depth === 0 ? text : `caused by: ${text}`);
    current = current instanceof Error ? current.cause : undefined;
  }
  return lines;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}
