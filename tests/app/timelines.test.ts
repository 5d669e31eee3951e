/**
 * The server's timelines (app/_server/outlines.ts): requests that arrive together for a run nobody
 * has opened yet share one build (ten cold requests once built a 200,000-entry timeline each, all
 * at once, on the server's one thread), folded in the projection pool, and a run that grew is
 * extended from its new records only, on a real server database.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { outline } from "@/lib/inspect/outline";
import { timelineOf } from "@/lib/inspect/timeline";
import type { Journal } from "@/lib/journal/ports";
import { freshServerDatabase } from "../helpers/databases";
import { timelineFacts } from "../helpers/timelines";

vi.mock("server-only", () => ({}));

async function appendTurns(store: Journal, runId: string, from: number, to: number): Promise<void> {
  for (let turn = from; turn < to; turn += 1) {
    await store.append({
      runId,
      name: `turn:${turn}`,
      kind: "model",
      payload: { message: { role: "assistant", content: [{ type: "text", text: `turn ${turn}` }] }, usage: { inputTokens: 10, outputTokens: 2 } },
    });
  }
}

describe("server timelines", () => {
  let drop: () => Promise<void>;
  let store: Journal & { close(): Promise<void> };
  const saved = { url: process.env.DATABASE_URL, demo: process.env.BACKTRACK_DEMO };

  beforeAll(async () => {
    const database = await freshServerDatabase();
    drop = database.drop;
    process.env.DATABASE_URL = database.url;
    process.env.BACKTRACK_DEMO = "0";
    const { getStore } = await import("@/app/_server/store");
    store = await getStore();
    await store.append({ runId: "cold", name: "run:start", kind: "header", payload: { agent: "a", model: "demo/v1", tools: [], input: "go" } });
    await appendTurns(store, "cold", 0, 30);
  });

  afterAll(async () => {
    await store.close();
    await drop();
    process.env.DATABASE_URL = saved.url;
    process.env.BACKTRACK_DEMO = saved.demo;
  });

  /** The outline pages the projection pool folds while `work` runs. */
  async function pagesFolded(work: () => Promise<unknown>): Promise<number> {
    const { projectionPool } = await import("@/app/_server/pool");
    const pool = projectionPool();
    const run = vi.spyOn(pool, "run");
    try {
      await work();
      return run.mock.calls.filter(([name]) => name === "outlinePage").length;
    } finally {
      run.mockRestore();
    }
  }

  it("builds a cold run's timeline once for requests that arrive together, in the pool", async () => {
    const { runTimeline } = await import("@/app/_server/outlines");
    const run = await store.run("cold");
    let timelines: Awaited<ReturnType<typeof runTimeline>>[] = [];
    expect(
      await pagesFolded(async () => {
        timelines = await Promise.all(Array.from({ length: 5 }, () => runTimeline("cold", run!)));
      }),
    ).toBe(1);
    const expected = timelineFacts(timelineOf(outline(await store.history("cold"))));
    for (const timeline of timelines) expect(timelineFacts(timeline!)).toEqual(expected);
    expect(await runTimeline("nobody")).toBeUndefined();
  });

  it("extends the kept timeline when the run grows, reading only the new records, and shares that build too", async () => {
    const { runTimeline } = await import("@/app/_server/outlines");
    const before = await runTimeline("cold");
    await appendTurns(store, "cold", 30, 45);
    const run = await store.run("cold");
    let grown: Awaited<ReturnType<typeof runTimeline>>[] = [];
    expect(
      await pagesFolded(async () => {
        grown = await Promise.all([runTimeline("cold", run!), runTimeline("cold", run!)]);
      }),
    ).toBe(1);
    expect(grown[0]!.entries.at(31)?.name).toBe("turn:30");
    for (const timeline of grown) expect(timelineFacts(timeline!)).toEqual(timelineFacts(timelineOf(outline(await store.history("cold")))));
    // A view taken before the run grew still shows the run as it was.
    expect(before!.entries).toHaveLength(31);
    expect(before!.entries.at(31)).toBeUndefined();
    expect(await pagesFolded(() => runTimeline("cold", run!))).toBe(0);
  });
});
