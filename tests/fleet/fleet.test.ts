/**
 * The fleet test: two inspectors (`backtrack start --no-worker`, the built app) and two
 * `backtrack worker` processes on one PostgreSQL database. 200 jobs (replays, and decisions that
 * resume paused runs) go in through both inspectors; midway one worker (while it runs jobs) and
 * one inspector are killed with SIGKILL. Every job ends done exactly once: no replay run twice, no
 * charge twice, none lost; the dead worker's jobs go back to the queue within the staleness bound
 * + 1 s and run again on the survivor; a run page's event stream on the surviving inspector keeps updating; the surviving
 * worker stops on SIGTERM within 10 s. Needs `npm run build` first (npm run test:fleet).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PendingApproval } from "@/lib/agent/pauses";
import { openStore, type PostgresStore } from "@/lib/store";
import { freshServerDatabase } from "../helpers/databases";
import { crashyAgent, sqlSink } from "../recovery/fixtures";

const BASE_PORT = Number(process.env.E2E_PORT ?? 3100) + 6000;
const SOURCES = 10;
const REPLAYS = 120;
const DECISIONS = 80;
const HEARTBEAT_MS = 250;
/** A job is stale after three missed heartbeats. */
const STALE_MS = HEARTBEAT_MS * 3;
const CONFIG = resolve("tests/fleet/fleet.config.ts");

interface Proc {
  child: ChildProcess;
  output: () => string;
}

function launch(args: string[], env: Record<string, string>, detached = false): Proc {
  const child = spawn(process.execPath, [resolve("bin/backtrack.mjs"), ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/** kill -9 of the process and, for an inspector, the Next.js server it started (its process group). */
function killHard(proc: Proc, group: boolean): void {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  if (group && proc.child.pid) process.kill(-proc.child.pid, "SIGKILL");
  else proc.child.kill("SIGKILL");
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, everyMs));
  }
}

async function post(port: number, path: string, body: unknown): Promise<{ jobId: string; newRunId?: string }> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (response.status !== 202) throw new Error(`POST ${path} on ${port}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { jobId: string; newRunId?: string };
}

describe("the fleet: 2 inspectors and 2 workers on one PostgreSQL, kill -9 midway", () => {
  let database: Awaited<ReturnType<typeof freshServerDatabase>>;
  let store: PostgresStore;
  const procs: Array<{ proc: Proc; group: boolean }> = [];

  beforeAll(async () => {
    database = await freshServerDatabase({ empty: true });
    store = await openStore({ url: database.url });
    const sink = await sqlSink(store.client);
    for (let index = 0; index < SOURCES; index += 1) await crashyAgent(store, sink).run(`fleet-src-${index}`, `Charge customer ada ${20 + index} dollars, wait 0 ms.`);
    for (let index = 0; index < DECISIONS + 1; index += 1) {
      await expect(crashyAgent(store, sink).run(`fleet-pay-${String(index).padStart(3, "0")}`, "Charge customer grace 500 dollars, wait 0 ms.")).rejects.toBeInstanceOf(
        PendingApproval,
      );
    }
  }, 120_000);

  afterAll(async () => {
    for (const { proc, group } of procs) killHard(proc, group);
    await store?.close();
    await database?.drop();
  });

  const started = Date.now();
  const mark = (what: string) => process.stderr.write(`fleet: ${what} at ${Date.now() - started} ms\n`);

  it("runs every job exactly once, takes a dead worker's jobs over in time, and keeps the survivor live", async () => {
    const env = {
      DATABASE_URL: database.url,
      BACKTRACK_DEMO: "0",
      NEXT_TELEMETRY_DISABLED: "1",
      BACKTRACK_JOB_HEARTBEAT_MS: String(HEARTBEAT_MS),
      BACKTRACK_LEASE_TTL_MS: "1000",
      BACKTRACK_JOB_BACKOFF_MS: "100",
    };
    const ports = [BASE_PORT, BASE_PORT + 1];
    const inspectors = ports.map((port) => launch(["start", "--no-worker", "--port", String(port), "--config", CONFIG], env, true));
    const workers = [0, 1].map(() => launch(["worker", "--concurrency", "4", "--config", CONFIG], env));
    for (const proc of inspectors) procs.push({ proc, group: true });
    for (const proc of workers) procs.push({ proc, group: false });
    for (const port of ports) await until(`inspector ${port}`, async () => ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok ? true : undefined), 60_000, 250);
    mark("inspectors up");
    const ids = await Promise.all(workers.map((proc) => until("a worker", async () => /worker (\S+) started/.exec(proc.output())?.[1], 60_000)));

    // Half the jobs through both inspectors, a few at a time.
    const jobs: Array<{ jobId: string; kind: "replay" | "resume"; newRunId?: string }> = [];
    const submit = async (index: number, port: number) => {
      // Three replays to two decisions: REPLAYS and DECISIONS over the 200.
      if (index % 5 < 3) {
        const answer = await post(port, `/api/runs/fleet-src-${index % SOURCES}/replays`, { mode: "recorded" });
        jobs.push({ jobId: answer.jobId, kind: "replay", newRunId: answer.newRunId });
      } else {
        const run = `fleet-pay-${String(jobs.filter((job) => job.kind === "resume").length).padStart(3, "0")}`;
        jobs.push({ jobId: "", kind: "resume" });
        const slot = jobs.length - 1;
        jobs[slot] = { jobId: (await post(port, `/api/runs/${run}/decisions`, { decision: "approve", by: "fleet" })).jobId, kind: "resume" };
      }
    };
    const total = REPLAYS + DECISIONS;
    for (let index = 0; index < total / 2; index += 4) await Promise.all([0, 1, 2, 3].map((offset) => submit(index + offset, ports[(index + offset) % 2] as number)));

    mark("submitted half");
    // Kill the worker running the most jobs, once it runs some, and the first inspector.
    const running = async () => store.client.query<{ owner: string; n: string }>("SELECT owner, count(*) AS n FROM jobs WHERE status = 'running' GROUP BY owner ORDER BY n DESC");
    const busy = await until("a worker running jobs", async () => (await running()).find((row) => ids.includes(row.owner)), 20_000, 20);
    const victim = ids.indexOf(busy.owner);
    const [clock] = await store.client.query<{ at: Date }>("SELECT clock_timestamp() AS at");
    killHard(workers[victim] as Proc, false);
    killHard(inspectors[0] as Proc, true);
    const killedAt = clock?.at as Date;
    await new Promise((done) => setTimeout(done, 100));
    const held = await store.client.query<{ job_id: string }>("SELECT job_id FROM jobs WHERE owner = $1 AND status = 'running'", [busy.owner]);
    expect(held.length).toBeGreaterThan(0);

    // The rest through the surviving inspector; one paused run is kept back to watch live.
    for (let index = total / 2; index < total; index += 4) await Promise.all([0, 1, 2, 3].map((offset) => submit(index + offset, ports[1] as number)));
    const watched = `fleet-pay-${String(DECISIONS).padStart(3, "0")}`;
    const stream = await fetch(`http://127.0.0.1:${ports[1]}/api/runs/${watched}/stream`);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    let events = "";
    const complete = (async () => {
      while (!/"status":"complete"/.test(events)) {
        const { value, done } = await reader.read();
        if (done) break;
        events += new TextDecoder().decode(value);
      }
    })();
    await until("the stream's hello", async () => (events.includes("event: hello") ? true : undefined), 10_000, 50);
    const watchedJob = (await post(ports[1] as number, `/api/runs/${watched}/decisions`, { decision: "approve", by: "fleet" })).jobId;
    await Promise.race([complete, new Promise((_, fail) => setTimeout(() => fail(new Error(`no live completion of ${watched}: ${events}`)), 30_000))]);
    await reader.cancel();
    expect(events).toMatch(/event: change/);

    const everyJob = [...jobs.map((job) => job.jobId), watchedJob];
    mark("submitted all");
    await until(
      "every job done",
      async () => {
        const [row] = await store.client.query<{ open: string }>("SELECT count(*) AS open FROM jobs WHERE status <> 'done'");
        return Number(row?.open) === 0 ? true : undefined;
      },
      90_000,
      250,
    ).catch(async (error: unknown) => {
      const open = await store.client.query("SELECT job_id, kind, status, attempts, owner, error, run_id FROM jobs WHERE status <> 'done' LIMIT 10");
      throw new Error(`${String(error)}: ${JSON.stringify(open)}\n${workers.map((proc) => proc.output().slice(-3000)).join("\n----\n")}`);
    });
    mark("all done");
    const rows = await store.client.query<{ job_id: string; status: string; attempts: number; owner: string | null; started_at: Date }>(
      "SELECT job_id, status, attempts, owner, started_at FROM jobs ORDER BY job_id",
    );
    // None lost, none extra, each done.
    expect(rows.map((row) => row.job_id).sort()).toEqual([...everyJob].sort());
    expect(rows.filter((row) => row.status !== "done")).toEqual([]);

    // The dead worker's jobs went back to the fleet within the staleness bound + 1 s (queued again:
    // run_after is that moment + the 100 ms backoff), and the survivor ran them as attempt 2.
    const takeovers = await store.client.query<{ job_id: string; attempts: number; requeued_ms: number; claimed_ms: number }>(
      `SELECT job_id, attempts, extract(epoch FROM run_after - interval '100 milliseconds' - $2::timestamptz) * 1000 AS requeued_ms,
              extract(epoch FROM started_at - $2::timestamptz) * 1000 AS claimed_ms
       FROM jobs WHERE job_id IN (SELECT jsonb_array_elements_text($1::text::jsonb))`,
      [JSON.stringify(held.map((row) => row.job_id)), killedAt],
    );
    expect(takeovers).toHaveLength(held.length);
    for (const takeover of takeovers) {
      expect(takeover.attempts, takeover.job_id).toBe(2);
      expect(Number(takeover.requeued_ms), `${takeover.job_id} queued again ${Math.round(takeover.requeued_ms)} ms after the kill`).toBeLessThanOrEqual(STALE_MS + 1_000);
      // Claimed as soon as a slot of the busy survivor is free (the job goes first in the queue).
      expect(Number(takeover.claimed_ms), `${takeover.job_id} claimed ${Math.round(takeover.claimed_ms)} ms after the kill`).toBeLessThanOrEqual(STALE_MS + 3_000);
    }
    const slowest = (field: "requeued_ms" | "claimed_ms") => Math.round(Math.max(...takeovers.map((takeover) => Number(takeover[field]))));
    process.stderr.write(`fleet: ${held.length} jobs of the killed worker queued again within ${slowest("requeued_ms")} ms, claimed within ${slowest("claimed_ms")} ms\n`);

    // No replay run twice: exactly the runs the inspectors reserved, each complete (or halted on an unknown charge).
    const replays = await store.client.query<{ run_id: string; status: string; reason: string | null }>(
      "SELECT run_id, status, pause->>'reason' AS reason FROM runs WHERE run_id LIKE 'fleet-src-%~replay-%' ORDER BY run_id",
    );
    expect(replays.map((run) => run.run_id)).toEqual(
      jobs
        .filter((job) => job.kind === "replay")
        .map((job) => job.newRunId)
        .sort(),
    );
    const unfinished = (run: { status: string; reason: string | null }) => run.status !== "complete" && !(run.status === "paused" && run.reason === "halt");
    expect(replays.filter(unfinished)).toEqual([]);
    const decided = await store.client.query<{ run_id: string; status: string; reason: string | null }>(
      "SELECT run_id, status, pause->>'reason' AS reason FROM runs WHERE run_id LIKE 'fleet-pay-%' ORDER BY run_id",
    );
    expect(decided.filter(unfinished)).toEqual([]);
    // No tool effect twice: each charge call (run, call) made at most once, and a completed run charged.
    const twice = await store.client.query("SELECT run_id, call, count(*) FROM side_charges GROUP BY run_id, call HAVING count(*) > 1");
    expect(twice).toEqual([]);
    const charged = new Set((await store.client.query<{ run_id: string }>("SELECT run_id FROM side_charges")).map((row) => row.run_id));
    const uncharged = [...replays, ...decided].filter((run) => run.status === "complete" && !charged.has(run.run_id));
    expect(uncharged).toEqual([]);

    // The survivor logged its actions, shows on /api/workers, and stops on SIGTERM within 10 s, its row gone.
    const survivor = workers[1 - victim] as Proc;
    expect(survivor.output()).toMatch(/claimed job \S+ \(replay/);
    expect(survivor.output()).toMatch(/done job \S+ in \d+ ms/);
    const listed = (await (await fetch(`http://127.0.0.1:${ports[1]}/api/workers`)).json()) as { workers: Array<{ workerId: string; stale: boolean }> };
    expect(listed.workers.find((worker) => worker.workerId === ids[1 - victim])).toMatchObject({ stale: false });
    const stoppedAt = Date.now();
    const exited = new Promise((done) => survivor.child.once("exit", done));
    survivor.child.kill("SIGTERM");
    await exited;
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    expect(survivor.output()).toMatch(/stopped$/m);
    expect(await store.client.query("SELECT worker_id FROM workers WHERE worker_id = $1", [ids[1 - victim]])).toEqual([]);
  }, 240_000);
});
