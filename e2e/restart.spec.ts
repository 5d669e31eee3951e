/**
 * Replay jobs across a server crash: a server is killed mid-replay; after a restart on the same
 * database the job runs again (attempt 2) and continues the same replay run to completion.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { expect, test, type APIRequestContext } from "@playwright/test";
import postgres from "postgres";
import { RESTART_PORT } from "../playwright.config";

const base = `http://127.0.0.1:${RESTART_PORT}`;
/**
 * A PostgreSQL server database (E2E_POSTGRES_URL, default the local test server): its queries do
 * not hold the server's thread the way an embedded database's do, so the replay's 202 comes back
 * while the job still runs, and the kill lands mid-job.
 */
const ADMIN_URL = process.env.E2E_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

function startServer(databaseUrl: string): ChildProcess {
  return spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-H", "127.0.0.1", "-p", String(RESTART_PORT)], {
    // A 2 s heartbeat: the killed server's jobs are stale after 6 s rather than the default 15 s;
    // its lease on the replay run expires after 3 s rather than 30 s.
    env: { ...process.env, DATABASE_URL: databaseUrl, NEXT_TELEMETRY_DISABLED: "1", BACKTRACK_JOB_HEARTBEAT_MS: "2000", BACKTRACK_LEASE_TTL_MS: "3000" },
    stdio: "ignore",
  });
}

async function healthy(request: APIRequestContext): Promise<void> {
  await expect.poll(async () => (await request.get(`${base}/api/health`).catch(() => null))?.status() ?? 0, { timeout: 30_000 }).toBe(200);
}

/** Stops the server with `signal`; one that has not exited 5 s after a SIGTERM is killed. */
async function stopped(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill(signal);
  const late = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(late);
}

test("a replay job cut off by a server crash runs again after the restart and finishes the same run", async ({ page, request }) => {
  test.setTimeout(120_000);
  const name = `backtrack_e2e_restart_${Date.now().toString(36)}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  let server = startServer(url.toString());
  try {
    await healthy(request);
    // Replaying long-audit (1,500 records) takes about a second: the server dies mid-drive.
    const response = await request.post(`${base}/api/runs/long-audit/replays`, { data: { mode: "recorded" } });
    expect(response.status()).toBe(202);
    const started = (await response.json()) as { jobId: string; newRunId: string };
    await stopped(server, "SIGKILL");

    server = startServer(url.toString());
    await healthy(request);
    // The dead server's heartbeat goes stale (6 s here); the new server's worker runs the job again.
    const status = async () => (await (await request.get(`${base}/api/replays/${started.jobId}`)).json()) as { status: string; attempts: number; newRunId: string };
    await expect.poll(async () => (await status()).status, { timeout: 60_000, intervals: [1_000] }).toBe("done");
    const job = await status();
    // Attempt 2, unless the first server finished before the kill landed.
    expect(job.attempts).toBeGreaterThanOrEqual(1);
    expect(job.newRunId).toBe(started.newRunId);
    const run = (await (await request.get(`${base}/api/runs/${encodeURIComponent(started.newRunId)}`)).json()) as { run: { status: string } };
    expect(run.run.status).toBe("complete");
    // One replay run, not two.
    const replays = (await (await request.get(`${base}/api/runs?limit=200`)).json()) as { runs: Array<{ runId: string }> };
    expect(replays.runs.filter((entry) => entry.runId.startsWith("long-audit~replay-")).map((entry) => entry.runId)).toEqual([started.newRunId]);
    await page.goto(`${base}/runs/${encodeURIComponent(started.newRunId)}`);
    await expect(page.getByRole("slider", { name: "Timeline" })).toBeVisible();
  } finally {
    await stopped(server, "SIGTERM");
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
});
