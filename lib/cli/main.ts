/**
 * `backtrack`: the command line. Exit codes: 0 ok, 1 a check failed, 2 bad usage or bad input.
 * Each command lives in commands/ and registers itself below.
 */
import { Command, CommanderError } from "commander";
import { isBacktrackError } from "../journal/errors";
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
  registerMigrate(program);
  registerRecovery(program);
  return program;
}

/**
 * The bin's entry point: runs the command, then ends the process once stdout and stderr have
 * handed every byte to the OS. Writes to a pipe are asynchronous in Node, and process.exit()
 * drops whatever the pipe has not taken yet (a 64 KiB cut of `backtrack export run | wc -c`).
 * The explicit exit after the flush keeps a stray handle (a timer, a socket) from holding the
 * process open once the command is done.
 */
export async function run(argv: string[]): Promise<never> {
  ignoreClosedReader(process.stdout);
  ignoreClosedReader(process.stderr);
  const code = await main(argv);
  process.exitCode = code;
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}

/** A reader that stops early (`| head`) is not an error: later writes are dropped, the command ends as usual. */
function ignoreClosedReader(stream: NodeJS.WriteStream): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE" && error.code !== "ERR_STREAM_DESTROYED") throw error;
  });
}

/** Resolves once every earlier write to `stream` has been handed to the OS (or the stream is gone). */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((done) => {
    if (stream.destroyed || stream.writableEnded) return done();
    // Writes complete in order: the callback of an empty write comes after all earlier ones.
    stream.write("", () => done());
  });
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
