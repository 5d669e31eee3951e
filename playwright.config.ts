import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { defineConfig } from "@playwright/test";

/**
 * End-to-end tests in real Chromium (Debian's) against the built app, on its own embedded
 * database folder. The folder is chosen once and inherited by the workers through the environment.
 * The servers are E2E_SERVERS, started by the global setup (e2e/servers.ts).
 */
const port = Number(process.env.E2E_PORT ?? 3100);
process.env.BACKTRACK_E2E_DB ??= join(mkdtempSync(join(tmpdir(), "backtrack-e2e-")), "db");
export const E2E_DATABASE = `pglite:${process.env.BACKTRACK_E2E_DB}`;
/** A second server whose database is unreachable (the error page's test). */
export const UNREACHABLE_PORT = Number(process.env.E2E_UNREACHABLE_PORT ?? port + 1000);
/** A read-only server (BACKTRACK_READ_ONLY=1) and a token-protected one, each on its own database folder. */
export const READ_ONLY_PORT = port + 2000;
export const TOKEN_PORT = port + 3000;
/** The restart test starts (and kills) its own server here. */
export const RESTART_PORT = port + 4000;
export const E2E_TOKEN = "e2e-secret-token";
/** A token-protected server that also answers the Host `inspector.test` (BACKTRACK_ALLOWED_HOSTS): e2e/hostile.spec.ts. */
export const HOSTS_PORT = port + 5000;
export const E2E_ALLOWED_HOST = "inspector.test";

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

/** A built server on `serverPort` over its own embedded database holding the demo runs, with `env` added. */
function ownServer(serverPort: number, env: Record<string, string>): E2EServer {
  const folder = folderFor(`BACKTRACK_E2E_DB_${serverPort}`);
  return { port: serverPort, readyPath: "/api/health", env: { DATABASE_URL: `pglite:${folder}`, ...env }, copyOfDemo: folder };
}

export const E2E_SERVERS: E2EServer[] = [
  {
    port,
    readyPath: "/api/health",
    // A user's config with one more model (e2e/replay.spec.ts replays under it).
    env: { DATABASE_URL: E2E_DATABASE, BACKTRACK_CONFIG: resolve("e2e/fixtures/backtrack.config.mts") },
    copyOfDemo: process.env.BACKTRACK_E2E_DB,
  },
  // Port 1 on loopback refuses connections: the inspector must say what to check.
  { port: UNREACHABLE_PORT, readyPath: "/runs", env: { DATABASE_URL: "postgres://postgres@127.0.0.1:1/backtrack_unreachable" } },
  ownServer(READ_ONLY_PORT, { BACKTRACK_READ_ONLY: "1" }),
  ownServer(TOKEN_PORT, { BACKTRACK_TOKEN: E2E_TOKEN }),
  ownServer(HOSTS_PORT, { BACKTRACK_TOKEN: E2E_TOKEN, BACKTRACK_ALLOWED_HOSTS: E2E_ALLOWED_HOST }),
];

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? "line" : "list",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  // Not webServer: Playwright starts those one after another; e2e/servers.ts starts E2E_SERVERS at once.
  globalSetup: "./e2e/servers.ts",
});
