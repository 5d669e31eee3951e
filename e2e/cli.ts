/** The command line, run against the e2e database (through the server's owner process). */
import { spawn, type ChildProcess } from "node:child_process";
import { E2E_DATABASE } from "../playwright.config";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `node <argv>` with its output collected. */
function startNode(argv: string[]): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, argv, { env: { ...process.env, DATABASE_URL: "" } });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<CliResult>((resolve) => child.on("exit", (code) => resolve({ code: code ?? 1, stdout, stderr })));
  return { child, done };
}

export function startCli(args: string[]): { child: ChildProcess; done: Promise<CliResult> } {
  return startNode(["bin/backtrack.mjs", ...args, "--db", E2E_DATABASE]);
}

/** Runs a planting script (e2e/plant-*.ts) against the e2e database; its trimmed stdout (what it planted). */
export async function plant(script: string, args: string[] = []): Promise<string> {
  const result = await startNode(["--import", "tsx", script, E2E_DATABASE, ...args]).done;
  if (result.code !== 0) throw new Error(`${script} exited ${result.code}: ${result.stderr}`);
  return result.stdout.trim();
}

export async function cli(args: string[]): Promise<CliResult> {
  const result = await startCli(args).done;
  if (result.code !== 0) throw new Error(`backtrack ${args.join(" ")} exited ${result.code}: ${result.stderr}`);
  return result;
}
