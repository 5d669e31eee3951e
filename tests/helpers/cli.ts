/**
 * The CLI run in this test process: `main(argv)` from lib/cli/main.ts with stdout and stderr
 * captured. It skips a node + tsx start (about a second) and shares this process's embedded
 * databases, so most CLI tests use it; tests of the real process (its exit, pipes, kill -9, two
 * processes at once) spawn bin/backtrack.mjs through runCli in processes.ts instead.
 * Invariant: calls run one at a time (the capture replaces process.stdout.write while main runs),
 * and process.stdout.write, process.stderr.write, process.exitCode and the environment are
 * restored after each call, whatever it threw.
 */
import { main } from "@/lib/cli/main";

export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

let running = false;

const text = (chunk: unknown): string => (chunk instanceof Uint8Array ? Buffer.from(chunk).toString("utf8") : String(chunk));

/** A write that appends to `sink` and, like a stream's, calls a trailing callback. */
function capture(sink: string[]): typeof process.stdout.write {
  return ((chunk: unknown, ...rest: unknown[]) => {
    sink.push(text(chunk));
    const callback = rest.find((argument) => typeof argument === "function") as (() => void) | undefined;
    if (callback) queueMicrotask(callback);
    return true;
  }) as typeof process.stdout.write;
}

/**
 * Runs `backtrack <argv>` in this process. `env` sets variables for the call (undefined removes
 * one), as the environment of a spawned CLI would.
 */
export async function runMain(argv: string[], env: Record<string, string | undefined> = {}): Promise<CliOutcome> {
  if (running) throw new Error("runMain: one CLI call at a time (stdout is captured process-wide)");
  running = true;
  const stdout: string[] = [];
  const stderr: string[] = [];
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  setEnv(env);
  process.stdout.write = capture(stdout);
  process.stderr.write = capture(stderr);
  try {
    const code = await main(argv);
    return { code, stdout: stdout.join(""), stderr: stderr.join("") };
  } finally {
    process.stdout.write = writes.stdout;
    process.stderr.write = writes.stderr;
    process.exitCode = undefined;
    setEnv(saved);
    running = false;
  }
}

function setEnv(values: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}
