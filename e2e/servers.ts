/**
 * Global setup of the e2e run: the built inspector's servers (E2E_SERVERS in playwright.config.ts),
 * started at once rather than one after another as Playwright's webServer list does. The demo
 * runs are written once, by the CLI, into a template folder; each embedded server gets a copy, so
 * none spends its start on initdb, the migrations and the 1,500-record demo run. (A server that
 * writes the demo into an empty database itself is e2e/restart.spec.ts's.) Returns the teardown,
 * which stops every server it started.
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { E2E_SERVERS, type E2EServer } from "../playwright.config";

const START_TIMEOUT_MS = 120_000;

/** Playwright's own test of a webServer url: any answer from 200 to 403 means it is up. */
async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    return response.status >= 200 && response.status < 404;
  } catch {
    return false;
  }
}

function seedTemplate(): string {
  const template = mkdtempSync(join(tmpdir(), "backtrack-e2e-template-"));
  execFileSync(process.execPath, ["bin/backtrack.mjs", "demo", "--json", "--db", `pglite:${template}`], {
    env: { ...process.env, DATABASE_URL: "" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return template;
}

interface Started {
  server: E2EServer;
  child: ChildProcess;
  output: string[];
}

function startServer(server: E2EServer): Started {
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-H", "127.0.0.1", "-p", String(server.port)], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...server.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const keep = (stream: NodeJS.WritableStream) => (chunk: Buffer) => {
    const text = chunk.toString();
    output.push(text);
    stream.write(text.replace(/^(?=.)/gm, `[server :${server.port}] `));
  };
  child.stdout?.on("data", keep(process.stdout));
  child.stderr?.on("data", keep(process.stderr));
  return { server, child, output };
}

async function ready({ server, child, output }: Started): Promise<void> {
  const url = `http://127.0.0.1:${server.port}${server.readyPath}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await answers(url))) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the server on port ${server.port} exited (${child.exitCode ?? child.signalCode}): ${output.join("")}`);
    if (Date.now() > deadline) throw new Error(`the server on port ${server.port} did not answer ${url} within ${START_TIMEOUT_MS} ms: ${output.join("")}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

async function stop({ child }: Started): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once("exit", done));
  child.kill("SIGTERM");
  const late = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(late);
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  for (const server of E2E_SERVERS) {
    // As webServer's reuseExistingServer: false: a port already answering is another run's server.
    if (await answers(`http://127.0.0.1:${server.port}${server.readyPath}`)) throw new Error(`port ${server.port} is already in use: set E2E_PORT to a free range`);
  }
  const began = Date.now();
  const template = seedTemplate();
  const seeded = Date.now();
  for (const server of E2E_SERVERS) {
    if (!server.copyOfDemo) continue;
    mkdirSync(server.copyOfDemo, { recursive: true });
    cpSync(join(template, "pgdata"), join(server.copyOfDemo, "pgdata"), { recursive: true });
  }
  rmSync(template, { recursive: true, force: true });
  const started = E2E_SERVERS.map(startServer);
  const teardown = async () => {
    await Promise.all(started.map(stop));
  };
  try {
    await Promise.all(started.map(ready));
    console.log(`e2e: demo written in ${((seeded - began) / 1000).toFixed(1)} s, ${started.length} servers up ${((Date.now() - seeded) / 1000).toFixed(1)} s later`);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
