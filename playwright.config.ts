import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { defineConfig } from "@playwright/test";

/**
 * End-to-end tests in real Chromium (Debian's) against the built app, on embedded database
 * folders. E2E_WORKERS workers (default 1) run the spec files at once, each against servers of
 * its own (E2E_SERVERS): worker w's servers listen on the ports below plus w × 100, each on its own
 * copy of the demo, so a worker sees what one worker running alone would, minus the writes of the
 * files another worker took. One by default: on two cores shared with other work, two workers
 * starved the live-run tests (a 30 s wait ran out) where one worker never did. Folders are chosen once, by the main process, and inherited
 * by the workers through the environment (each re-reads this file). The servers are started by
 * the global setup (e2e/servers.ts).
 */
export const E2E_WORKERS = Number(process.env.E2E_WORKERS ?? 1);
const basePort = Number(process.env.E2E_PORT ?? 3100);
/** How far apart two workers' server ports are. */
const WORKER_STRIDE = 100;
/** This worker's slot (Playwright sets TEST_PARALLEL_INDEX in each worker; 0 in the main process). */
const worker = Number(process.env.TEST_PARALLEL_INDEX ?? 0);

/** A built server the run starts (e2e/servers.ts), all at once, before the first test. */
export interface E2EServer {
  port: number;
  /** The path that answers once the server is up. */
  readyPath: string;
  env: Record<string, string>;
  /** The embedded database folder that gets a copy of the demo runs before the server starts. */
  copyOfDemo?: string;
}

/** A fresh embedded database folder, chosen once (workers re-read this file) and inherited through the environment. */
function folderFor(variable: string): string {
  process.env[variable] ??= join(mkdtempSync(join(tmpdir(), "backtrack-e2e-")), "db");
  return process.env[variable];
}

/** The ports and folders of the servers of the worker whose main server listens on `port`. */
function portsOf(port: number) {
  return {
    port,
    database: `pglite:${folderFor(`BACKTRACK_E2E_DB_${port}`)}`,
    /** A second server whose database is unreachable (the error page's test). */
    unreachable: process.env.E2E_UNREACHABLE_PORT ? Number(process.env.E2E_UNREACHABLE_PORT) + (port - basePort) : port + 1000,
    /** A read-only server (BACKTRACK_READ_ONLY=1) and a token-protected one, each on its own database folder. */
    readOnly: port + 2000,
    token: port + 3000,
    /** The restart test starts (and kills) its own server here. */
    restart: port + 4000,
    /** A token-protected server that also answers the Host `inspector.test` (BACKTRACK_ALLOWED_HOSTS): e2e/hostile.spec.ts. */
    hosts: port + 5000,
  };
}

const mine = portsOf(basePort + worker * WORKER_STRIDE);
/** This worker's main server (the one `baseURL` points at) and its embedded database. */
export const E2E_SERVER_PORT = mine.port;
export const E2E_DATABASE = mine.database;
export const UNREACHABLE_PORT = mine.unreachable;
export const READ_ONLY_PORT = mine.readOnly;
export const TOKEN_PORT = mine.token;
export const RESTART_PORT = mine.restart;
export const HOSTS_PORT = mine.hosts;
export const E2E_TOKEN = "e2e-secret-token";
export const E2E_ALLOWED_HOST = "inspector.test";

/** A built server on `serverPort` over its own embedded database holding the demo runs, with `env` added. */
function ownServer(serverPort: number, env: Record<string, string>): E2EServer {
  const folder = folderFor(`BACKTRACK_E2E_DB_${serverPort}`);
  return { port: serverPort, readyPath: "/api/health", env: { DATABASE_URL: `pglite:${folder}`, ...env }, copyOfDemo: folder };
}

/** One worker's servers. */
function serversOf(ports: ReturnType<typeof portsOf>): E2EServer[] {
  return [
    {
      port: ports.port,
      readyPath: "/api/health",
      // A user's config with one more model (e2e/replay.spec.ts replays under it).
      env: { DATABASE_URL: ports.database, BACKTRACK_CONFIG: resolve("e2e/fixtures/backtrack.config.mts") },
      copyOfDemo: ports.database.slice("pglite:".length),
    },
    // Port 1 on loopback refuses connections: the inspector must say what to check.
    { port: ports.unreachable, readyPath: "/runs", env: { DATABASE_URL: "postgres://postgres@127.0.0.1:1/backtrack_unreachable" } },
    ownServer(ports.readOnly, { BACKTRACK_READ_ONLY: "1" }),
    ownServer(ports.token, { BACKTRACK_TOKEN: E2E_TOKEN }),
    ownServer(ports.hosts, { BACKTRACK_TOKEN: E2E_TOKEN, BACKTRACK_ALLOWED_HOSTS: E2E_ALLOWED_HOST }),
  ];
}

/** Every worker's servers: the main process starts them all (e2e/servers.ts). */
export const E2E_SERVERS: E2EServer[] = Array.from({ length: E2E_WORKERS }, (_, index) => serversOf(portsOf(basePort + index * WORKER_STRIDE))).flat();

export default defineConfig({
  testDir: "e2e",
  // Files are shared out between the workers; the tests of one file run in order, in one worker.
  fullyParallel: false,
  workers: E2E_WORKERS,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? "line" : "list",
  use: {
    baseURL: `http://127.0.0.1:${E2E_SERVER_PORT}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  // Not webServer: Playwright starts those one after another; e2e/servers.ts starts E2E_SERVERS at once.
  globalSetup: "./e2e/servers.ts",
});
