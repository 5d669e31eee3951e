/** The real CLI for hostile tests, killed after a bound so that a hang fails the test instead of outliving it. */
import { spawn } from "node:child_process";
import { resolve } from "node:path";

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export function runCliBounded(args: string[], env: Record<string, string> = {}, killAfterMs = 30_000): Promise<CliResult> {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, [resolve("bin/backtrack.mjs"), ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
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
