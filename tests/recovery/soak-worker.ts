/**
 * A soak worker: recovers the shared database in a loop until SIGTERM. The test kills workers
 * with SIGKILL at random and starts new ones. Each lease it takes is logged (with the database
 * clock) so the test can measure takeovers; each genuine fault is logged too.
 * A worker boots, prints "ready", and waits for "go <holder>" on stdin: the test keeps spares
 * booted, so that a killed worker is replaced at once (booting takes seconds on a busy machine).
 * Usage: node worker.mjs <database url> <lease ttl ms>
 */
import { recover, type RecoverResult } from "../../lib/recovery/recover";
import { wakeDue } from "../../lib/recovery/wake";
import postgres from "postgres";
import { PostgresStore } from "../../lib/store/postgres-store";
import { PostgresClient } from "../../lib/store/sql-client";
import { PostgresWaker } from "../../lib/store/postgres-waker";
import { crashyAgent, sqlSink } from "./fixtures";

const [url, ttl] = process.argv.slice(2) as [string, string];
const ttlMs = Number(ttl);
// Straight to postgres.js (the test migrated the database): a worker must start fast, since
// it is killed every few seconds.
const store = new PostgresStore(new PostgresClient(postgres(url, { max: 6, onnotice: () => undefined }), "soak"));
const sink = await sqlSink(store.client);
const waker = new PostgresWaker(store);

const acquire = store.acquireLease.bind(store);
store.acquireLease = async (runId, by, leaseMs) => {
  const acquired = await acquire(runId, by, leaseMs);
  if (acquired) await store.client.query("INSERT INTO soak_leases (run_id, holder, at) VALUES ($1, $2, clock_timestamp())", [runId, by]);
  return acquired;
};

let stopping = false;
process.on("SIGTERM", () => {
  stopping = true;
});

const resume = (runId: string, { signal }: { signal: AbortSignal }) => crashyAgent(store, sink).runResult(runId, undefined, { signal, waker });

async function logged(pass: () => Promise<RecoverResult>): Promise<void> {
  try {
    const result = await pass();
    for (const failure of result.error?.failures ?? []) {
      const message = failure.error instanceof Error ? failure.error.message : String(failure.error);
      await store.client.query("INSERT INTO soak_faults (holder, run_id, message) VALUES ($1, $2, $3)", [holder, failure.runId, message]);
    }
  } catch (error) {
    await store.client
      .query("INSERT INTO soak_faults (holder, run_id, message) VALUES ($1, $2, $3)", [holder, "", error instanceof Error ? error.message : String(error)])
      .catch(() => undefined);
  }
}

async function loop(every: number, pass: () => Promise<void>): Promise<void> {
  while (!stopping) {
    await pass();
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}

process.stdout.write("ready\n");
const holder = await new Promise<string>((resolve) => {
  let buffered = "";
  process.stdin.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    const go = /^go (\S+)$/m.exec(buffered);
    if (go) resolve(go[1] as string);
  });
});
await Promise.all([
  // Short passes over everything: crashed runs, due sleeps.
  loop(50, async () => {
    await logged(() => recover(store, resume, { ttlMs, holder, concurrency: 3, limit: 3, waiting: "skip" }));
    await logged(() => wakeDue(store, waker, resume, { ttlMs, holder, limit: 3 }));
  }),
  // Takeover: a run whose holder died is driven as soon as its lease expires.
  loop(100, () => logged(() => recover(store, resume, { ttlMs, holder, concurrency: 3, select: (run) => run.abandoned }))),
]);
await store.close();
process.exit(0);
