/**
 * Crash at every durable write: a scripted run makes K journal writes; for each k it crashes at
 * write k (before it reaches the store, and just after), then a fresh process recovers. Every k
 * ends with the crash-free run's answer, or with ResumeHalt exactly where the charge's outcome is
 * unknown; the charge (an INSERT per call) fires at most once, the idempotent notice is
 * delivered once. MemStore, PGlite and the server in-process; real kill -9 of a child process on
 * the server.
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SimulatedCrashError, crashAt } from "@/lib/journal/faults";
import type { JournalBase } from "@/lib/journal/base";
import type { Journal } from "@/lib/journal/ports";
import { RUN_COMPLETE } from "@/lib/journal/names";
import type { JournalRecord } from "@/lib/journal/types";
import { recover } from "@/lib/recovery/recover";
import { openStore, type PostgresStore } from "@/lib/store";
import { freshServerDatabase, STORE_KINDS } from "../helpers/databases";
import { childArgs } from "../helpers/processes";
import { crashyAgent, memorySink, sqlSink, type Sink } from "./fixtures";

const INPUT = "Charge customer ada for the order.";
const CHARGE = "turn:0:call:1";

type TestStore = Journal & JournalBase & { close(): Promise<void> };

/** The charge's outcome is unknown when it was attempted, has no result, and did not stop at its sleep. */
function unknownOutcome(prefix: JournalRecord[]): boolean {
  const names = prefix.map((record) => record.name);
  if (!names.includes(`${CHARGE}:attempt`) || names.includes(`${CHARGE}:result`)) return false;
  const last = prefix.filter((record) => record.name.startsWith(`${CHARGE}:`)).at(-1);
  return last?.name !== `${CHARGE}:sleep:0`;
}

async function finalText(store: Journal, runId: string): Promise<string | undefined> {
  const record = await store.record(runId, RUN_COMPLETE);
  return (record?.payload as { value?: { text?: string } } | undefined)?.value?.text;
}

describe.each(STORE_KINDS)("crash at every durable write: $name", (kind) => {
  let store: TestStore;
  let sink: Sink;
  let reference: JournalRecord[];
  let referenceText: string;

  beforeAll(async () => {
    store = (await kind.open()) as TestStore;
    sink = kind.name === "memory" ? memorySink() : await sqlSink((store as unknown as PostgresStore).client);
    const result = await crashyAgent(store, sink).runResult("reference", INPUT);
    referenceText = result.text;
    reference = await store.history("reference");
  });
  afterAll(async () => {
    await store.close();
  });

  it("the crash-free run makes its writes in a fixed order and charges once", async () => {
    expect(reference.map((record) => record.name)).toEqual([
      "run:start",
      "turn:0",
      "turn:0:call:0:attempt",
      "turn:0:call:0:result",
      "turn:0:call:1:attempt",
      "turn:0:call:1:step:quote",
      "turn:0:call:1:sleep:0",
      "turn:0:call:1:sleep:0:passed",
      "turn:0:call:1:result",
      "turn:1",
      "turn:1:call:0:attempt",
      "turn:1:call:0:result",
      "turn:2",
      "run:complete",
    ]);
    expect(referenceText).toBe("Charged Ada rcpt-4200; notice sent.");
    expect(await sink.charges("reference")).toBe(1);
  });

  for (const when of ["before", "after"] as const) {
    it(`crashes ${when} each write k, recovers, and never charges twice`, async () => {
      const halts: number[] = [];
      for (let k = 1; k <= reference.length; k += 1) {
        const runId = `crash-${when}-${k}`;
        store.restart();
        store.faults = crashAt(k, when);
        const crash = await crashyAgent(store, sink)
          .run(runId, INPUT)
          .catch((error: unknown) => error);
        expect(crash, `k=${k}`).toBeInstanceOf(SimulatedCrashError);
        // A new process over the same data.
        store.faults = undefined;
        store.restart();
        const durable = when === "before" ? k - 1 : k;
        const history = await store.history(runId);
        expect(
          history.map((record) => record.name),
          `k=${k}`,
        ).toEqual(reference.slice(0, durable).map((record) => record.name));

        if (durable === 0) {
          // Nothing was written: the run never started, so its caller submits it again.
          expect(await store.run(runId)).toBeUndefined();
          await crashyAgent(store, sink).run(runId, INPUT);
        } else {
          const result = await recover(store, (id, { signal }) => crashyAgent(store, sink).runResult(id, undefined, { signal }));
          const mine = result.runs.find((run) => run.runId === runId);
          if (unknownOutcome(history)) {
            halts.push(k);
            expect(mine, `k=${k}`).toMatchObject({ outcome: "paused", pause: { reason: "halt", name: `${CHARGE}:attempt`, toolName: "charge" } });
            expect(await sink.charges(runId), `k=${k}`).toBeLessThanOrEqual(1);
            expect(await store.run(runId)).toMatchObject({ status: "paused", pause: { reason: "halt" } });
            continue;
          }
          // Crashed after run:complete: the run is finished, so recovery does not even list it.
          if (durable === reference.length) expect(mine).toBeUndefined();
          else expect(mine, `k=${k}`).toMatchObject({ outcome: "complete" });
          expect(result.error).toBeUndefined();
        }
        expect(await finalText(store, runId), `k=${k}`).toBe(referenceText);
        expect(await sink.charges(runId), `k=${k}`).toBe(1);
        const emails = await sink.emails(runId);
        expect(emails.delivered, `k=${k}`).toBe(1);
        expect(new Set(emails.keys).size, `k=${k}: one key on every try`).toBe(1);
        const records = await store.history(runId);
        expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index));
        expect(records.map((record) => record.name)).toEqual(reference.map((record) => record.name));
      }
      // Before write k: k-1 writes are durable. The charge is unknown after its attempt (5), its
      // step (6) and its passed marker (8), but not while it waited at its sleep (7).
      expect(halts).toEqual(when === "before" ? [6, 7, 9] : [5, 6, 8]);
    });
  }
});

describe("crash at a durable write by kill -9 of a real process: server", () => {
  let database: Awaited<ReturnType<typeof freshServerDatabase>>;
  let store: PostgresStore;
  let sink: Sink;

  beforeAll(async () => {
    database = await freshServerDatabase();
    store = await openStore({ url: database.url });
    sink = await sqlSink(store.client);
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  function runChild(runId: string, k: number): Promise<NodeJS.Signals | number | null> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [...childArgs("tests/recovery/crash-child.ts"), database.url, runId, String(k)], { stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.on("error", reject);
      child.on("exit", (code, signal) => (signal ? resolve(signal) : code === 0 ? resolve(0) : reject(new Error(`child exited ${code}: ${stderr}`))));
    });
  }

  // Killed before write k: after run:start (2), after the charge's attempt (6), after the charge
  // itself, before its result (9), after the idempotent notice, before its result (12), and
  // before run:complete (14).
  it.each([2, 6, 9, 12, 14])("killed before write %i, a fresh process recovers it", async (k) => {
    const runId = `killed-${k}`;
    expect(await runChild(runId, k)).toBe("SIGKILL");
    expect((await store.history(runId)).length).toBe(k - 1);
    const result = await recover(store, (id, { signal }) => crashyAgent(store, sink).runResult(id, undefined, { signal }), { ttlMs: 5_000 });
    const mine = result.runs.find((run) => run.runId === runId);
    if (k === 6 || k === 9) {
      expect(mine).toMatchObject({ outcome: "paused", pause: { reason: "halt", name: `${CHARGE}:attempt` } });
      expect(await sink.charges(runId)).toBe(k === 9 ? 1 : 0);
      return;
    }
    expect(mine).toMatchObject({ outcome: "complete" });
    expect(await finalText(store, runId)).toBe("Charged Ada rcpt-4200; notice sent.");
    expect(await sink.charges(runId)).toBe(1);
    expect((await sink.emails(runId)).delivered).toBe(1);
  });
});
