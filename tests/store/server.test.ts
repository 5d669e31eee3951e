/**
 * Server-only behaviour under real concurrency: racing writers on separate connections and
 * processes, concurrent migrations, notifications across connections.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "@/lib/store";
import type { PostgresStore } from "@/lib/store/postgres-store";
import type { JournalNotification } from "@/lib/journal/types";
import { READ_SQL } from "@/lib/store/read-sql";
import { freshServerDatabase } from "../helpers/databases";

/** The most rows any node of an EXPLAIN ANALYZE plan produced (its scans included). */
function mostRows(plan: Record<string, unknown>): number {
  const children = (plan.Plans as Array<Record<string, unknown>> | undefined) ?? [];
  return Math.max(Number(plan["Actual Rows"] ?? 0), ...children.map(mostRows));
}

describe("PostgresStore on the server, concurrently", () => {
  let database: { url: string; drop: () => Promise<void> };
  let stores: PostgresStore[];

  beforeAll(async () => {
    database = await freshServerDatabase({ empty: true });
    // Four stores, each its own pool: like four processes. They open (and migrate) at once.
    stores = await Promise.all([1, 2, 3, 4].map(() => openStore({ url: database.url, poolSize: 5 })));
  });
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await database.drop();
  });

  it("reads a page deep in a long, freshly written run without touching the records after it", async () => {
    // Written in one statement and never analysed: the planner's view of a run an agent just wrote.
    const client = stores[0]!.client;
    await client.query("INSERT INTO runs (run_id, agent) VALUES ('long-fresh', 'bench')");
    await client.query("INSERT INTO records (run_id, seq, name, kind, payload) SELECT 'long-fresh', g, 'r' || g, 'value', '{}'::json FROM generate_series(0, 29999) AS g");
    const page = await stores[1]!.history("long-fresh", { from: 15_000, limit: 500 });
    expect(page.map((record) => record.seq)).toEqual(Array.from({ length: 500 }, (_, index) => 15_000 + index));
    const [explained] = await client.query<{ "QUERY PLAN": Array<{ Plan: Record<string, unknown> }> }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${READ_SQL}`, [
      "long-fresh",
      15_000,
      15_500,
      500,
    ]);
    expect(mostRows(explained!["QUERY PLAN"][0]!.Plan)).toBeLessThanOrEqual(500);
  });

  it("lets exactly one of many racing writers record a name; the others get its value", async () => {
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, writer) => stores[writer % 4]!.append({ runId: "race", name: "decision", kind: "value", payload: { writer } })),
    );
    const winners = results.filter((result) => result.created);
    expect(winners).toHaveLength(1);
    const winner = winners[0]!.record.payload;
    expect(results.every((result) => JSON.stringify(result.record.payload) === JSON.stringify(winner))).toBe(true);
    expect(await stores[0]!.history("race")).toHaveLength(1);
    expect((await stores[0]!.run("race"))?.recordCount).toBe(1);
  });

  it("keeps seq dense and unique under concurrent appends of different names", async () => {
    await Promise.all(Array.from({ length: 80 }, (_, index) => stores[index % 4]!.append({ runId: "dense-race", name: `n${index}`, kind: "value", payload: index })));
    const history = await stores[1]!.history("dense-race");
    expect(history.map((record) => record.seq)).toEqual([...Array(80).keys()]);
    expect(new Set(history.map((record) => record.name)).size).toBe(80);
    expect(await stores[2]!.run("dense-race")).toMatchObject({ recordCount: 80, lastSeq: 79 });
  });

  it("creates a new run's summary once when its first writers race", async () => {
    await Promise.all(Array.from({ length: 12 }, (_, index) => stores[index % 4]!.append({ runId: "fresh-race", name: `first-${index}`, kind: "value", payload: index })));
    expect(await stores[3]!.run("fresh-race")).toMatchObject({ recordCount: 12, lastSeq: 11 });
  });

  it("starts a new run with do() in two statements: its history read and one append", async () => {
    const store = stores[0]!;
    const statements: string[] = [];
    const query = store.client.query.bind(store.client);
    store.client.query = ((...args: Parameters<typeof query>) => {
      const text = args[0];
      if (!text.includes("pg_notify")) statements.push(text.includes("INSERT INTO runs") ? "create" : text.trimStart().startsWith("SELECT") ? "read" : "other");
      return query(...args);
    }) as typeof store.client.query;
    try {
      expect(await store.do("fresh-do", "first", () => 1)).toBe(1);
      expect(statements).toEqual(["read", "create"]);
      // The hint is only a hint: another process that started the run meanwhile does not break it.
      await stores[1]!.history("taken-first");
      await stores[2]!.append({ runId: "taken-first", name: "theirs", kind: "value", payload: 0 });
      expect(await stores[1]!.append({ runId: "taken-first", name: "mine", kind: "value", payload: 1 })).toMatchObject({ created: true, record: { seq: 1 } });
      expect((await stores[3]!.run("taken-first"))?.recordCount).toBe(2);
    } finally {
      store.client.query = query;
    }
  });

  it("returns one value to racing do() calls in different processes", async () => {
    const values = await Promise.all(stores.map((store, index) => store.do("do-race", "pick", async () => ({ picked: index }))));
    expect(new Set(values.map((value) => JSON.stringify(value))).size).toBe(1);
  });

  it("appends at the next free seq when another process took the one this process expected", async () => {
    const [first, second] = [stores[0]!, stores[1]!];
    for (const name of ["a", "b", "c"]) await first.append({ runId: "stale-seq", name, kind: "value", payload: name });
    // The first store remembers seq 2 as the last; the second writes 3 and 4 behind its back.
    for (const name of ["d", "e"]) await second.append({ runId: "stale-seq", name, kind: "value", payload: name });
    const appended = await first.append({ runId: "stale-seq", name: "f", kind: "value", payload: "f" });
    expect(appended).toMatchObject({ created: true, record: { seq: 5 } });
    // A name the other process recorded meanwhile still comes back as the winner's record.
    await second.append({ runId: "stale-seq", name: "g", kind: "value", payload: "second's" });
    expect(await first.append({ runId: "stale-seq", name: "g", kind: "value", payload: "first's" })).toMatchObject({ created: false, record: { seq: 6, payload: "second's" } });
    const history = await first.history("stale-seq");
    expect(history.map((record) => [record.seq, record.name])).toEqual(["a", "b", "c", "d", "e", "f", "g"].map((name, seq) => [seq, name]));
  });

  it("writes the summary row only for records that change it, or once it is a second old", async () => {
    const store = stores[2]!;
    const runId = "summary-writes";
    const version = async () => (await store.client.query<{ version: string }>("SELECT xmin::text AS version FROM runs WHERE run_id = $1", [runId]))[0]!.version;
    const age = (interval: string) => store.client.query(`UPDATE runs SET updated_at = now() + interval '${interval}' WHERE run_id = $1`, [runId]);
    await store.append({ runId, name: "run:start", kind: "header", payload: { input: "x", agent: "a" } });
    await age("1 hour");
    const before = await version();
    await store.append({ runId, name: "value", kind: "value", payload: 1 });
    await store.append({ runId, name: "attempt", kind: "attempt", payload: {} });
    expect(await version()).toBe(before);
    await store.append({ runId, name: "turn:0", kind: "model", payload: { message: { role: "assistant", content: [] }, usage: { inputTokens: 2, outputTokens: 1 } } });
    const afterModel = await version();
    expect(afterModel).not.toBe(before);
    await age("-1 hour");
    // This process skips the summary for a second after writing it (APPEND_INSERT_AT_SQL): let it pass.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const stale = await version();
    await store.append({ runId, name: "late-value", kind: "value", payload: 2 });
    expect(await version()).not.toBe(stale);
    const summary = await store.run(runId);
    expect(summary).toMatchObject({ recordCount: 5, lastSeq: 4, modelTurns: 1, inputTokens: 2 });
    expect(Date.now() - Date.parse(summary!.updatedAt)).toBeLessThan(60_000);
  });

  it("notifies a listener on another connection of every append", async () => {
    const seen: JournalNotification[] = [];
    const stop = await stores[0]!.subscribe((note) => {
      if (note.runId === "notified") seen.push(note);
    });
    for (let index = 0; index < 5; index += 1) await stores[3]!.append({ runId: "notified", name: `s${index}`, kind: "value", payload: index });
    await expect.poll(() => seen.map((note) => note.seq), { timeout: 5_000 }).toEqual([0, 1, 2, 3, 4]);
    await stop();
  });
});
