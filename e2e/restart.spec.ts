/**
 * Replay jobs across a server crash: a server is killed mid-replay; after a restart on
 * the same database their jobs show as interrupted, and "Recover now" finishes their runs.
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
    // A 2 s heartbeat: the killed server's jobs are stale after 6 s rather than the default 15 s.
    env: { ...process.env, DATABASE_URL: databaseUrl, NEXT_TELEMETRY_DISABLED: "1", BACKTRACK_JOB_HEARTBEAT_MS: "2000" },
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

test("a replay job cut off by a server crash shows as interrupted, and its run is recoverable", async ({ page, request }) => {
  test.setTimeout(120_000);
  const name = `backtrack_e2e_restart_${Date.now().toString(36)}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  let server = startServer(url.toString());
  try {
    await healthy(request);
    const started: Array<{ jobId: string; newRunId: string }> = [];
    // Replaying long-audit (1,500 records) takes about a second: the server dies mid-drive.
    const response = await request.post(`${base}/api/runs/long-audit/replays`, { data: { mode: "recorded" } });
    expect(response.status()).toBe(202);
    started.push((await response.json()) as { jobId: string; newRunId: string });
    await stopped(server, "SIGKILL");

    server = startServer(url.toString());
    await healthy(request);
    // The dead server's heartbeat goes stale (6 s here), then the new one marks its unfinished jobs.
    const statuses = async () =>
      Promise.all(started.map(async ({ jobId }) => (await (await request.get(`${base}/api/replays/${jobId}`)).json()) as { status: string; error?: string }));
    await expect.poll(async () => (await statuses()).every((job) => job.status === "done" || job.status === "interrupted"), { timeout: 60_000, intervals: [1_000] }).toBe(true);
    const jobs = await statuses();
    const interrupted = started.filter((_, index) => jobs[index]?.status === "interrupted");
    expect(jobs[0]).toMatchObject({ status: "interrupted", error: expect.stringContaining("server stopped") });

    await page.goto(`${base}/recovery`);
    await expect(page.locator(`tr[data-run="${interrupted[0]?.newRunId ?? ""}"]`)).toBeVisible();
    await page.getByRole("button", { name: "Recover now" }).click();
    await expect(page.getByRole("status", { name: "Recovery progress" })).toContainText(/recovered \d+ runs?/, { timeout: 30_000 });
    for (const { newRunId } of interrupted) {
      const run = (await (await request.get(`${base}/api/runs/${encodeURIComponent(newRunId)}`)).json()) as { run: { status: string } };
      expect(run.run.status, newRunId).toBe("complete");
    }
  } finally {
    await stopped(server, "SIGTERM");
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
});
