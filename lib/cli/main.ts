/**
 * `backtrack`: the command line. Exit codes: 0 ok, 1 a check failed (or an unexpected error),
 * 2 bad usage, bad input or environment. Every error is one line on stderr (errors.ts); --verbose
 * adds the stack. Each command lives in commands/ and registers itself below.
 */
import { Command, CommanderError } from "commander";
import { registerDelete } from "./commands/delete";
import { registerDemo } from "./commands/demo";
import { registerFork } from "./commands/fork";
import { registerTry } from "./commands/try";
import { registerBisect } from "./commands/bisect";
import { registerMigrate } from "./commands/migrate";
import { registerPrune } from "./commands/prune";
import { registerRecovery } from "./commands/recovery";
import { registerRegression } from "./commands/regression";
import { registerRuns } from "./commands/runs";
import { registerSearch } from "./commands/search";
import { registerSessions } from "./commands/sessions";
import { registerShow } from "./commands/show";
import { registerStart } from "./commands/start";
import { registerSuites } from "./commands/suites";
import { registerTransfer } from "./commands/transfer";
import { registerWorker } from "./commands/worker";
import { EXIT_BAD_INPUT } from "./context";
import { describeFailure } from "./errors";

const HELP_AFTER = `
Exit codes: 0 done; 1 a check failed (a regression, a recovery that failed) or an unexpected
error (a bug); 2 bad usage, bad input or environment (an unknown run, a malformed file, a
database that cannot be reached or opened). Each error is one line on stderr; --verbose adds
its stack.

Environment: DATABASE_URL (the database when --db is absent); BACKTRACK_CONNECT_TIMEOUT_MS
(how long connecting to a server and its first query may take, default 8000);
BACKTRACK_OWNER_WAIT_MS (how long to wait for the process owning an embedded folder, default 15000).`;

export function buildProgram(): Command {
  const program = new Command("backtrack")
    .description("Backtrack: a durable journal for AI-agent runs, and its inspector")
    .option("--verbose", "print the stack of an error, not only its one-line message")
    .addHelpText("after", HELP_AFTER)
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
  registerSearch(program);
  registerFork(program);
  registerTry(program);
  registerSuites(program);
  registerWorker(program);
  registerBisect(program);
  registerPrune(program);
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
  // An error outside the command's own promise (a socket, a worker) is still one line and exit code.
  const fail = (error: unknown) => {
    const failure = describeFailure(error, isVerbose(argv));
    process.stderr.write(`${failure.lines.join("\n")}\n`);
    process.exit(failure.exitCode);
  };
  process.on("uncaughtException", fail);
  process.on("unhandledRejection", fail);
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
    const failure = describeFailure(error, isVerbose(argv));
    process.stderr.write(`${failure.lines.join("\n")}\n`);
    return failure.exitCode;
  }
}

/** --verbose is read from argv itself: an error may come before (or instead of) parsing. */
function isVerbose(argv: string[]): boolean {
  return argv.includes("--verbose");
}
