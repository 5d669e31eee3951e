/**
 * Child processes for multi-process tests: real node processes running a test's TypeScript
 * script, bundled by the global setup (scripts/build-test-cli.mjs), or through tsx.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { relative, resolve } from "node:path";
import children from "../../scripts/test-children.json";

const require = createRequire(import.meta.url);
// `--import tsx` runs the script in this very node process (the tsx CLI would put a wrapper
// process in front, and a kill -9 of the wrapper would leave the real process running).
const TSX_LOADER = require.resolve("tsx/esm");

/**
 * The node arguments that run `script`: a child script listed in scripts/test-children.json runs
 * as the bundle the global setup builds of it (scripts/build-test-cli.mjs), the same code without
 * tsx compiling it at each start (about 0.3 s of CPU against 1.3 s); any other script
 * (bin/backtrack.mjs, whose entry is what some tests test) runs through tsx.
 * With --enable-source-maps a stack names the source files, as under tsx.
 */
export function childArgs(script: string): string[] {
  const path = relative(process.cwd(), resolve(script)).replaceAll("\\", "/");
  if (children.scripts.includes(path)) return ["--enable-source-maps", resolve(children.dir, path.replace(/\.ts$/, ".mjs"))];
  return ["--import", TSX_LOADER, resolve(script)];
}

export interface Child {
  process: ChildProcess;
  output: () => string;
  /** Resolves when stdout has printed a line matching `pattern`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<number | null>;
}

export function startTs(script: string, args: string[], env: Record<string, string | undefined> = {}): Child {
  const child = spawn(process.execPath, [...childArgs(script), ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
  return {
    process: child,
    output: () => stdout + stderr,
    exited,
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((done, fail) => {
        const started = Date.now();
        const check = () => {
          const line = stdout.split("\n").find((candidate) => pattern.test(candidate));
          if (line !== undefined) return done(line);
          if (child.exitCode !== null) return fail(new Error(`child exited (${child.exitCode}) before ${pattern}: ${stdout}${stderr}`));
          if (Date.now() - started > timeoutMs) return fail(new Error(`timed out waiting for ${pattern}: ${stdout}${stderr}`));
          setTimeout(check, 25);
        };
        check();
      });
    },
  };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Wall time from spawn to exit. */
  ms: number;
}

/**
 * The CLI bundled from lib/cli/main.ts by the global setup (scripts/build-test-cli.mjs): the same
 * code and entry as bin/backtrack.mjs, without tsx compiling it at each start (about 0.5 s a start
 * against 1.6 s). Tests of the entry itself (tests/hostile/cli-pipe.test.ts, recovery/cli.test.ts…) spawn
 * bin/backtrack.mjs, so the shipped entry stays tested. With --enable-source-maps a stack names the
 * source files (lib/…/*.ts), as under tsx.
 */
export const TEST_CLI = resolve("node_modules/.cache/backtrack-test-cli/backtrack.mjs");

/** Runs the CLI (TEST_CLI, the bundle of bin/backtrack.mjs's code) to completion, killed after `killAfterMs` so that a hang fails its test instead of outliving it. */
export function runCli(args: string[], env: Record<string, string | undefined> = {}, killAfterMs = 120_000): Promise<CliResult> {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, ["--enable-source-maps", TEST_CLI, ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const killer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
    child.on("exit", (code) => {
      clearTimeout(killer);
      done({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}
