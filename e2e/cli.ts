/** The command line, run against the e2e database (through the server's owner process). */
import { spawn, type ChildProcess } from "node:child_process";
import { E2E_DATABASE } from "../playwright.config";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function startCli(args: string[]): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, ["bin/backtrack.mjs", ...args, "--db", E2E_DATABASE], { env: { ...process.env, DATABASE_URL: "" } });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<CliResult>((resolve) => child.on("exit", (code) => resolve({ code: code ?? 1, stdout, stderr })));
  return { child, done };
}

export async function cli(args: string[]): Promise<CliResult> {
  const result = await startCli(args).done;
  if (result.code !== 0) throw new Error(`backtrack ${args.join(" ")} exited ${result.code}: ${result.stderr}`);
  return result;
}
