/**
 * The multi-process soak: 200 runs, each left mid-way by a crash, recovered by 4 worker processes
 * in a loop against one server while a random worker is killed (SIGKILL) every 50-150
 * milliseconds and replaced. At the end every run is complete or paused, none is lost, no
 * non-idempotent effect fired twice, and the runs a killed worker held were taken over within
 * the lease TTL + 1 s. It stops by itself: the kill phase ends after 20 kills (or 40 s), then
 * the workers get at most 30 s to settle.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crashAt, SimulatedCrashError } from "@/lib/journal/faults";
import { RUN_COMPLETE } from "@/lib/journal/names";
import { openStore, type PostgresStore } from "@/lib/store";
import { freshServerDatabase } from "../helpers/databases";
import { crashyAgent, expectedAnswer, sqlSink } from "./fixtures";

const RUNS = 200;
const WORKERS = 4;
const TTL_MS = 1_000;
// The kill phase ends after KILLS kills, or at KILL_PHASE_MS on a starved machine.
const KILLS = 20;
const KILL_PHASE_MS = 40_000;
const SETTLE_MS = 30_000;
const CUSTOMERS = ["ada", "grace", "alan", "edsger", "barbara"];

interface Job {
  runId: string;
  customer: string;
  amount: number;
  input: string;
}

function job(index: number): Job {
  const customer = CUSTOMERS[index % CUSTOMERS.length] as string;
  // Every 10th charge needs approval (it stays paused); every 7th sleeps 1.5 s before charging.
  const amount = index % 10 === 0 ? 500 : 10 + (index % 50);
  const waitMs = index % 7 === 0 ? 1_500 : 0;
  return { runId: `soak-${String(index).padStart(3, "0")}`, customer, amount, input: `Charge customer ${customer} ${amount} dollars, wait ${waitMs} ms.` };
}

interface Kill {
  holder: string;
  at: Date;
  held: string[];
  /** When each held lease expires, in ms after the kill (for the failure message). */
  expiresMs: number[];
}

describe("multi-process soak: 4 recovering workers, kill -9 at random, one server", () => {
  let database: Awaited<ReturnType<typeof freshServerDatabase>>;
  let store: PostgresStore;
  let workerScript: string;
  const workers = new Map<number, { child: ChildProcess; holder: string }>();
  const stderr: string[] = [];

  beforeAll(async () => {
    database = await freshServerDatabase();
    store = await openStore({ url: database.url });
    await sqlSink(store.client);
    await store.client.exec(`
      CREATE TABLE soak_leases (id serial PRIMARY KEY, run_id text NOT NULL, holder text NOT NULL, at timestamptz NOT NULL);
      CREATE TABLE soak_faults (id serial PRIMARY KEY, holder text NOT NULL, run_id text NOT NULL, message text NOT NULL);`);
    // One minified bundle with its packages inside: a worker boots in a fraction of a second.
    const folder = join(process.cwd(), "node_modules", ".cache", "backtrack-soak");
    mkdirSync(folder, { recursive: true });
    workerScript = join(folder, `worker-${process.pid}.mjs`);
    await build({
      entryPoints: ["tests/recovery/soak-worker.ts"],
      bundle: true,
      minify: true,
      platform: "node",
      format: "esm",
      target: "node20",
      outfile: workerScript,
      logLevel: "error",
      banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
    });
  });

  afterAll(async () => {
    for (const { child } of workers.values()) child.kill("SIGKILL");
    for (const spare of spares)
      void spare.then(
        (child) => child.kill("SIGKILL"),
        () => undefined,
      );
    await store.close();
    await database.drop();
    rmSync(workerScript, { force: true });
  });

  const spares: Array<Promise<ChildProcess>> = [];

  /** Boots a worker that waits for its holder name (see soak-worker.ts). */
  function boot(): Promise<ChildProcess> {
    const child = spawn(process.execPath, [workerScript, database.url, String(TTL_MS)], { stdio: ["pipe", "pipe", "pipe"] });
    child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
    return new Promise((resolve, reject) => {
      child.stdout?.once("data", () => resolve(child));
      child.once("exit", (code) => reject(new Error(`a worker exited ${code} while booting: ${stderr.join("")}`)));
    });
  }

  /** Puts a booted spare to work in `slot` and boots the next spare. */
  async function startWorker(slot: number, generation: number): Promise<void> {
    const next = spares.shift() ?? boot();
    spares.push(boot());
    const child = await next;
    child.removeAllListeners("exit");
    const holder = `w${slot}-g${generation}`;
    child.stdin?.write(`go ${holder}\n`);
    workers.set(slot, { child, holder });
  }

  async function settled(): Promise<boolean> {
    // Sleeping runs wake within seconds: they are not settled yet.
    const [row] = await store.client.query<{ open: string }>("SELECT count(*) AS open FROM runs WHERE status <> 'complete' AND (status <> 'paused' OR pause->>'reason' = 'sleep')");
    return Number(row?.open) === 0;
  }

  /**
   * A worker that is driving a run, at random, or any worker when none is: a kill of an idle worker
   * measures no takeover, and alone on a quiet machine most random kills found their worker idle.
   */
  async function victimSlot(): Promise<number> {
    const driving = await store.client.query<{ holder: string }>(
      `SELECT DISTINCT l.holder FROM leases l JOIN runs r ON r.run_id = l.run_id
       WHERE l.expires_at > clock_timestamp() AND r.completed_at IS NULL AND r.status NOT IN ('complete', 'paused')`,
    );
    const holders = new Set(driving.map((row) => row.holder));
    const busy = [...workers.entries()].filter(([, worker]) => holders.has(worker.holder)).map(([slot]) => slot);
    const slots = busy.length > 0 ? busy : Array.from({ length: WORKERS }, (_, slot) => slot);
    return slots[Math.floor(Math.random() * slots.length)] as number;
  }

  it("loses no run, repeats no effect, and takes a killed worker's runs over within TTL + 1 s", async () => {
    // 200 runs, each crashed before a random write between its 2nd and its last.
    const jobs = Array.from({ length: RUNS }, (_, index) => job(index));
    const sink = await sqlSink(store.client);
    for (const [index, { runId, input }] of jobs.entries()) {
      store.restart();
      store.faults = crashAt(2 + ((index * 7919) % 13));
      await crashyAgent(store, sink)
        .run(runId, input)
        .catch((error: unknown) => {
          if (!(error instanceof SimulatedCrashError) && !(error as { code?: string }).code?.startsWith("paused")) throw error;
        });
    }
    store.faults = undefined;
    store.restart();

    for (let spare = 0; spare < WORKERS; spare += 1) spares.push(boot());
    for (let slot = 0; slot < WORKERS; slot += 1) await startWorker(slot, 0);
    const started = Date.now();
    const kills: Kill[] = [];
    let generation = 1;
    while (kills.length < KILLS && Date.now() - started < KILL_PHASE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
      const slot = await victimSlot();
      const victim = workers.get(slot);
      if (!victim) continue;
      const [now] = await store.client.query<{ at: Date }>("SELECT clock_timestamp() AS at");
      victim.child.kill("SIGKILL");
      // Replaced at once by a booted spare.
      await startWorker(slot, generation);
      generation += 1;
      // A statement the dead process sent just before it died still completes on the server:
      // give those a moment, then see which runs it was driving. Those are leased to it, neither
      // finished nor paused (waiting for a human or a wake time), and nobody else may drive them
      // until the lease expires.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const held = await store.client.query<{ run_id: string; expires_ms: number }>(
        `SELECT l.run_id, extract(epoch FROM l.expires_at - $2::timestamptz) * 1000 AS expires_ms FROM leases l JOIN runs r ON r.run_id = l.run_id
         WHERE l.holder = $1 AND r.completed_at IS NULL AND r.status NOT IN ('complete', 'paused')`,
        [victim.holder, now?.at],
      );
      kills.push({ holder: victim.holder, at: new Date(now?.at as Date), held: held.map((row) => row.run_id), expiresMs: held.map((row) => Math.round(Number(row.expires_ms))) });
    }
    // No more kills: the workers finish what is left.
    const deadline = Date.now() + SETTLE_MS;
    while (!(await settled()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    await Promise.all(
      [...workers.values()].map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            child.once("exit", () => resolve());
            child.kill("SIGTERM");
          }),
      ),
    );
    workers.clear();
    for (const spare of spares.splice(0))
      void spare.then(
        (child) => child.kill("SIGKILL"),
        () => undefined,
      );

    expect(kills.length).toBeGreaterThanOrEqual(10);
    // Nothing lost: every run is there, complete or paused.
    const runs = await store.client.query<{ run_id: string; status: string; reason: string | null }>(
      "SELECT run_id, status, pause->>'reason' AS reason FROM runs WHERE run_id LIKE 'soak-%' ORDER BY run_id",
    );
    expect(runs.map((run) => run.run_id)).toEqual(jobs.map((entry) => entry.runId));
    expect(runs.filter((run) => run.status !== "complete" && run.status !== "paused")).toEqual([]);
    expect(await store.client.query("SELECT holder, run_id, message FROM soak_faults")).toEqual([]);

    for (const entry of jobs) {
      const run = runs.find((candidate) => candidate.run_id === entry.runId);
      const charges = await sink.charges(entry.runId);
      expect(charges, entry.runId).toBeLessThanOrEqual(1);
      if (entry.amount > 100) {
        expect(run, entry.runId).toMatchObject({ status: "paused", reason: "approval" });
        expect(charges).toBe(0);
      } else if (run?.status === "paused") {
        // Only an unknown outcome may stop a run that needs no human.
        expect(run.reason, entry.runId).toBe("halt");
      } else {
        const complete = await store.record(entry.runId, RUN_COMPLETE);
        expect((complete?.payload as { value: { text: string } }).value.text, entry.runId).toBe(expectedAnswer(entry.customer, entry.amount));
        expect(charges, entry.runId).toBe(1);
        expect((await sink.emails(entry.runId)).delivered, entry.runId).toBe(1);
      }
    }
    const twice = await store.client.query("SELECT run_id, count(*) FROM side_charges GROUP BY run_id HAVING count(*) > 1");
    expect(twice).toEqual([]);

    // Takeover: every run a killed worker was driving was leased by another holder within
    // TTL + 1 s of the kill.
    let measured = 0;
    let slowest = 0;
    for (const kill of kills) {
      for (const [index, runId] of kill.held.entries()) {
        const [next] = await store.client.query<{ ms: number | null }>(
          "SELECT extract(epoch FROM min(at) - $3::timestamptz) * 1000 AS ms FROM soak_leases WHERE run_id = $1 AND holder <> $2 AND at > $3",
          [runId, kill.holder, kill.at],
        );
        const about = `${runId} held by ${kill.holder}, its lease expiring ${kill.expiresMs[index]} ms after the kill`;
        expect(next?.ms, about).not.toBeNull();
        expect(Number(next?.ms), about).toBeLessThanOrEqual(TTL_MS + 1_000);
        slowest = Math.max(slowest, Number(next?.ms));
        measured += 1;
      }
    }
    expect(measured).toBeGreaterThan(0);
    process.stderr.write(`soak: ${kills.length} kills, ${measured} runs taken over, slowest takeover ${Math.round(slowest)} ms after the kill\n`);
  }, 120_000);
});
