/**
 * `backtrack`: the command line. Exit codes: 0 ok, 1 a check failed, 2 bad usage or bad input.
 * Each command lives in commands/ and registers itself below.
 */
import { Command, CommanderError } from "commander";
import { isBacktrackError } from "../journal/errors";
import { registerDelete } from "./commands/delete";
import { registerDemo } from "./commands/demo";
import { registerMigrate } from "./commands/migrate";
import { registerRecovery } from "./commands/recovery";
import { registerRegression } from "./commands/regression";
import { registerRuns } from "./commands/runs";
import { registerSessions } from "./commands/sessions";
import { registerShow } from "./commands/show";
import { registerStart } from "./commands/start";
import { registerTransfer } from "./commands/transfer";
import { CliError, EXIT_BAD_INPUT, EXIT_CHECK_FAILED } from "./context";

export function buildProgram(): Command {
  const program = new Command("backtrack")
    .description("Backtrack: a durable journal for AI-agent runs, and its inspector")
    .showHelpAfterError()
    .exitOverride();
  registerStart(program);
  registerDemo(program);
  registerRuns(program);
  registerShow(program);
  registerSessions(program);
  registerRegression(program);
  registerTransfer(program);
  registerDelete(program);
  registerMigrate(program);
  registerRecovery(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: "user" });
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : EXIT_BAD_INPUT;
    if (error instanceof CliError) {
      process.stderr.write(`backtrack: ${error.message}\n`);
      return error.exitCode;
    }
    if (isBacktrackError(error)) {
      process.stderr.write(`backtrack: ${error.message}\n`);
      // Bad input (unknown run, malformed file, locked database): 2. A failed check: 1.
      return error.code === "no_recorded_output" ? EXIT_CHECK_FAILED : EXIT_BAD_INPUT;
    }
    process.stderr.write(`backtrack: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return EXIT_CHECK_FAILED;
  }
}
