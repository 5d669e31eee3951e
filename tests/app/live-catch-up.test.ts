/**
 * A run's live stream when a note is lost: notes are hints (lib/store/notify-batch.ts drops a
 * batch it failed to send), so the stream also reads its run and tells a change no note carried.
 * The fleet test met this: a run completed by a worker, and its page's stream never said so.
 * The real route on a real server database; the "lost note" is a change written with plain SQL.
 */
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { writeBigRun } from "@/bench/big-runs";
import type { PostgresStore } from "@/lib/store";
import { freshServerDatabase } from "../helpers/databases";

vi.mock("server-only", () => ({}));

const params = <T>(value: T) => ({ params: Promise.resolve(value) });

/** Reads the stream until `done` holds for what came so far, or fails after `timeoutMs`. */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, done: (text: string) => boolean, timeoutMs: number): Promise<string> {
  let text = "";
  const deadline = Date.now() + timeoutMs;
  while (!done(text)) {
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`not within ${timeoutMs} ms; the stream said: ${text}`);
    const chunk = await Promise.race([reader.read(), new Promise<undefined>((resolve) => setTimeout(resolve, left))]);
    if (!chunk) continue;
    if (chunk.done) throw new Error(`the stream ended; it said: ${text}`);
    text += new TextDecoder().decode(chunk.value);
  }
  return text;
}

describe("a run's live stream catches up on a lost note", () => {
  let drop: () => Promise<void>;
  let store: PostgresStore;
  const saved = { url: process.env.DATABASE_URL, demo: process.env.BACKTRACK_DEMO };

  beforeAll(async () => {
    const database = await freshServerDatabase();
    drop = database.drop;
    Object.assign(process.env, { DATABASE_URL: database.url, BACKTRACK_DEMO: "0" });
    const { getStore } = await import("@/app/_server/store");
    store = await getStore();
    await writeBigRun(store, "quiet", 12);
    await store.client.query("UPDATE runs SET status = 'running', completed_at = NULL WHERE run_id = 'quiet'");
  });

  afterAll(async () => {
    await store.close();
    await drop();
    Object.assign(process.env, { DATABASE_URL: saved.url, BACKTRACK_DEMO: saved.demo });
  });

  it("tells the run's completion, and the records before it, though no note said so", async () => {
    const { GET } = await import("@/app/api/runs/[id]/stream/route");
    const response = await GET(new NextRequest("http://127.0.0.1/api/runs/quiet/stream"), params({ id: "quiet" }));
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    try {
      const hello = await readUntil(reader, (text) => text.includes("event: hello"), 5_000);
      expect(hello).toMatch(/"status":"running"/);
      // Written with no note: as if the note of this append and completion was lost.
      await store.client.query("INSERT INTO records (run_id, seq, name, kind, payload) VALUES ('quiet', 12, 'final', 'signal', '{}'::json)");
      await store.client.query("UPDATE runs SET status = 'complete', completed_at = now() WHERE run_id = 'quiet'");
      const after = await readUntil(reader, (text) => text.includes("event: change"), 8_000); // A few of the stream's CATCH_UP_MS.
      const change = JSON.parse(/event: change\ndata: (.*)\n/.exec(after)?.[1] ?? "null") as { changes: unknown[] };
      expect(change.changes).toEqual([{ runId: "quiet", seq: 12, status: "complete" }]);
    } finally {
      await reader.cancel();
    }
  });
});
