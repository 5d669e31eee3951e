/**
 * The PostgreSQL side of recovery (PGlite and the server): durable timers that survive a
 * reopen, and the single indexed queries behind enumeration and due timers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Sleeping } from "@/lib/agent/pauses";
import { tool } from "@/lib/agent/tool";
import { wakeDue } from "@/lib/recovery/wake";
import { openStore, type PostgresStore } from "@/lib/store";
import { PostgresWaker } from "@/lib/store/postgres-waker";
import { embeddedFolder, freshServerDatabase } from "../helpers/databases";
import { plannedAgent } from "./agents";

interface Place {
  name: string;
  url: string;
  remove(): Promise<void>;
}

const PLACES: Array<{ name: string; make(): Promise<Place> }> = [
  {
    name: "pglite",
    make: async () => {
      const folder = embeddedFolder();
      return { name: "pglite", url: folder.url, remove: async () => folder.remove() };
    },
  },
  {
    name: "server",
    make: async () => {
      const database = await freshServerDatabase();
      return { name: "server", url: database.url, remove: database.drop };
    },
  },
];

async function plan(store: PostgresStore, query: string, params: unknown[]): Promise<string> {
  const rows = await store.client.query<Record<string, string>>(`EXPLAIN ${query}`, params);
  return rows.map((row) => Object.values(row)[0]).join("\n");
}

describe.each(PLACES)("recovery on PostgreSQL: $name", (place) => {
  let where: Place;
  let store: PostgresStore;

  beforeAll(async () => {
    where = await place.make();
    store = await openStore({ url: where.url });
  });
  afterAll(async () => {
    await store.close();
    await where.remove();
  });

  it("keeps a sleeping run's timer across a reopen and wakes the run when it is due", async () => {
    let clock = Date.parse("2026-12-01T12:00:00.000Z");
    const ticks: string[] = [];
    const tick = tool({
      name: "tick",
      description: "Sleep an hour, then tick.",
      input: z.object({}),
      execute: async (_args, ctx) => {
        await ctx.sleep(3_600_000);
        ticks.push(ctx.runId);
        return { ticked: true };
      },
    });
    const agent = (on: PostgresStore) => plannedAgent(on, [tick], [{ name: "tick", args: {} }]);
    const waker = new PostgresWaker(store, () => clock);
    await expect(agent(store).run("hourly", "tick in an hour", { waker })).rejects.toBeInstanceOf(Sleeping);
    // Registering again (a replay) keeps the one timer.
    await expect(agent(store).run("hourly", undefined, { waker })).rejects.toBeInstanceOf(Sleeping);
    expect(await waker.pending()).toEqual([{ runId: "hourly", rootRunId: "hourly", name: "turn:0:call:0:sleep:0", wakeAt: "2026-12-01T13:00:00.000Z" }]);

    // A restart: a new process opens the same database; the timer is still there.
    await store.close();
    store = await openStore({ url: where.url });
    const reopened = new PostgresWaker(store, () => clock);
    expect(await reopened.due()).toEqual([]);
    clock += 3_600_000;
    expect((await reopened.due()).map((wake) => wake.runId)).toEqual(["hourly"]);
    const woken = await wakeDue(store, reopened, (runId, { signal }) => agent(store).runResult(runId, undefined, { signal, waker: reopened }), { ttlMs: 5_000 });
    expect(woken.runs).toEqual([{ runId: "hourly", outcome: "complete" }]);
    expect(ticks).toEqual(["hourly"]);
    expect(await reopened.pending()).toEqual([]);
  });

  it("enumerates unfinished runs and finds due timers with index scans, not per-run queries", async () => {
    await store.client.exec(`
      INSERT INTO runs (run_id, status, completed_at) SELECT 'bulk-' || g, 'complete', now() FROM generate_series(1, 20000) AS g;
      INSERT INTO runs (run_id, status) SELECT 'open-' || g, 'running' FROM generate_series(1, 50) AS g;
      INSERT INTO timers (run_id, name, root_run_id, wake_at) SELECT 'bulk-' || g, 'sleep', 'bulk-' || g, now() + g * interval '1 minute' FROM generate_series(1, 20000) AS g;
      ANALYZE runs; ANALYZE timers;`);
    const unfinished = await store.unfinishedRuns();
    expect(unfinished.filter((run) => run.runId.startsWith("open-"))).toHaveLength(50);
    expect(unfinished.some((run) => run.runId.startsWith("bulk-"))).toBe(false);
    expect(
      await plan(
        store,
        `SELECT r.run_id FROM runs r LEFT JOIN leases l ON l.run_id = r.run_id WHERE r.status <> 'complete' AND r.completed_at IS NULL AND r.run_id > $1::text ORDER BY r.run_id LIMIT $2::int`,
        ["", 1000],
      ),
    ).toContain("runs_unfinished_idx");
    expect(await plan(store, `SELECT run_id FROM timers WHERE wake_at <= $1::timestamptz ORDER BY wake_at LIMIT $2::int`, [new Date().toISOString(), 1000])).toContain(
      "timers_wake_idx",
    );
  });
});
