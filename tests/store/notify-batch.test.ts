/**
 * Journal notifications sent in batches after the appends (lib/store/notify-batch.ts): every
 * append is still heard, in this process's order, a status change after the records before it,
 * and batches larger than one NOTIFY payload are split, on PGlite and across server connections.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Journal } from "@/lib/journal/ports";
import type { JournalNotification } from "@/lib/journal/types";
import { openStore } from "@/lib/store";
import { batchPayloads, encodeNote } from "@/lib/store/notify-batch";
import { parseNotification, parseNotifications, type PostgresStore } from "@/lib/store/postgres-store";
import type { SqlClient } from "@/lib/store/sql-client";
import { freshServerDatabase, STORE_KINDS } from "../helpers/databases";

describe("batch payloads", () => {
  it("splits notes into payloads PostgreSQL accepts, keeping every note in order", () => {
    const notes = Array.from({ length: 1_000 }, (_, seq) => ({ runId: `run-${"r".repeat(seq % 200)}`, seq, kind: "value", status: "running" as const }));
    const payloads = batchPayloads(notes.map(encodeNote));
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expect(Buffer.byteLength(payload, "utf8")).toBeLessThan(8_000);
    expect(payloads.flatMap(parseNotifications)).toEqual(notes);
  });

  it("reads a single note as before and ignores what is not a note", () => {
    expect(parseNotifications('["a",3,"value","running"]')).toEqual([{ runId: "a", seq: 3, kind: "value", status: "running" }]);
    expect(parseNotification('["a",-1,"status","failed"]')).toEqual({ runId: "a", seq: -1, kind: "status", status: "failed" });
    expect(parseNotifications("not json")).toEqual([]);
    expect(parseNotifications('{"runId":"a"}')).toEqual([]);
    expect(parseNotifications('[[1,2],["b",0,"value","running"]]')).toEqual([{ runId: "b", seq: 0, kind: "value", status: "running" }]);
  });
});

describe.each(STORE_KINDS.filter((kind) => kind.name !== "memory"))("notifications in batches: $name", (kind) => {
  let store: Journal & { close(): Promise<void> };
  beforeAll(async () => {
    store = await kind.open();
  });
  afterAll(async () => {
    await store.close();
  });

  it("hears every append of runs written at once, in order, and a status change after its records", async () => {
    const notes: JournalNotification[] = [];
    const stop = await store.subscribe((note) => {
      if (note.runId.startsWith("batch-")) notes.push(note);
    });
    const runs = Array.from({ length: 12 }, (_, index) => `batch-${index}-${"x".repeat(120)}`);
    await Promise.all(
      runs.map(async (runId) => {
        for (let step = 0; step < 15; step += 1) await store.append({ runId, name: `step-${step}`, kind: "value", payload: step });
      }),
    );
    await store.setStatus(runs[0]!, { status: "failed", error: "boom" });
    await expect.poll(() => notes.length, { timeout: 10_000 }).toBe(12 * 15 + 1);
    for (const runId of runs) expect(notes.filter((note) => note.runId === runId && note.seq >= 0).map((note) => note.seq)).toEqual([...Array(15).keys()]);
    expect(notes.filter((note) => note.runId === runs[0]).at(-1)).toMatchObject({ seq: -1, status: "failed" });
    await stop();
  });
});

describe("notifications across server connections", () => {
  let database: { url: string; drop: () => Promise<void> };
  let writer: PostgresStore;
  let reader: PostgresStore;
  beforeAll(async () => {
    database = await freshServerDatabase();
    [writer, reader] = await Promise.all([openStore({ url: database.url, poolSize: 8 }), openStore({ url: database.url, poolSize: 1 })]);
  });
  afterAll(async () => {
    await Promise.all([writer.close(), reader.close()]);
    await database.drop();
  });

  it("delivers the notes of 64 runs appending at once to a listener in another pool, within a second of the last", async () => {
    const seen = new Map<string, number[]>();
    const stop = await reader.subscribe((note) => seen.set(note.runId, [...(seen.get(note.runId) ?? []), note.seq]));
    await Promise.all(
      Array.from({ length: 64 }, async (_, run) => {
        for (let step = 0; step < 10; step += 1) await writer.append({ runId: `wide-${run}`, name: `s${step}`, kind: "value", payload: { step } });
      }),
    );
    const written = Date.now();
    await expect.poll(() => [...seen.values()].reduce((sum, seqs) => sum + seqs.length, 0), { timeout: 5_000, interval: 20 }).toBe(640);
    expect(Date.now() - written).toBeLessThan(1_000);
    for (const seqs of seen.values()) expect(seqs).toEqual([...Array(10).keys()]);
    await stop();
  });

  it("sends at most one batch per gap while a writer keeps appending, and every note in order", async () => {
    const paced = await openStore({ url: database.url, poolSize: 1 });
    const sentAt: number[] = [];
    const seen: number[] = [];
    const stop = await reader.subscribe((note) => {
      if (note.runId === "paced") seen.push(note.seq);
    });
    // The real client, timed: the batch statement is the one that calls pg_notify.
    const query = paced.client.query.bind(paced.client);
    paced.client.query = ((text, params, options) => {
      if (text.includes("pg_notify")) sentAt.push(performance.now());
      return query(text, params, options);
    }) as SqlClient["query"];
    const started = performance.now();
    let seq = 0;
    while (performance.now() - started < 600) {
      await paced.append({ runId: "paced", name: `s${seq}`, kind: "value", payload: seq });
      seq += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await paced.close();
    await expect.poll(() => seen.length, { timeout: 5_000 }).toBe(seq);
    expect(seen).toEqual([...Array(seq).keys()]);
    // A 25 ms window alone would send about 20 batches in 600 ms; the 100 ms gap allows about 7.
    expect(sentAt.length).toBeLessThanOrEqual(9);
    // Every gap but the last (the close sends what is queued at once).
    const gaps = sentAt.slice(1, -1).map((at, index) => at - sentAt[index]!);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(95);
    await stop();
  });

  it("sends what is queued when the store closes", async () => {
    const other = await openStore({ url: database.url, poolSize: 1 });
    const seen: number[] = [];
    const stop = await reader.subscribe((note) => {
      if (note.runId === "closing") seen.push(note.seq);
    });
    await other.append({ runId: "closing", name: "only", kind: "value", payload: 1 });
    await other.close();
    await expect.poll(() => seen, { timeout: 5_000 }).toEqual([0]);
    await stop();
  });
});
