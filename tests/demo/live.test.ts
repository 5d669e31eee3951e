/** The live demo writes a real run, a step every interval, on every store. */
import { getEventListeners } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { liveRunId, runLiveDemo } from "@/lib/demo/live";
import { outline } from "@/lib/inspect/outline";
import type { Journal } from "@/lib/journal/ports";
import { STORE_KINDS } from "../helpers/databases";

describe.each(STORE_KINDS)("demo --live: $name", (kind) => {
  let store: Journal & { close(): Promise<void> };
  beforeAll(async () => {
    store = await kind.open();
  });
  afterAll(async () => {
    await store.close();
  });

  it("runs the scripted auditor to completion, one step per interval, and notifies each append", async () => {
    const notes: number[] = [];
    const unsubscribe = await store.subscribe((note) => {
      if (note.runId === "live-test") notes.push(note.seq);
    });
    const started = Date.now();
    const result = await runLiveDemo(store, { runId: "live-test", accounts: 4, intervalMs: 40 });
    const elapsed = Date.now() - started;
    expect(result.text).toBe("Audited 4 accounts; 0 flagged for review.");
    const titles = outline(await store.history("live-test")).map((entry) => entry.title);
    expect(titles.filter((title) => title === "tool: checkAccount")).toHaveLength(4);
    expect(titles.at(-1)).toBe("run:complete");
    // Three model turns and four tool calls, each waiting one interval.
    expect(elapsed).toBeGreaterThanOrEqual(7 * 40);
    expect((await store.run("live-test"))?.status).toBe("complete");
    await expect.poll(() => notes.length).toBe(titles.length);
    await unsubscribe();
  });

  it("leaves no abort listener behind on its signal after each pause", async () => {
    // A listener per pause, never removed, passed Node's limit of 10 on a 20-account run and printed a warning.
    const controller = new AbortController();
    await runLiveDemo(store, { runId: "live-listeners", accounts: 12, intervalMs: 1, signal: controller.signal });
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("names live runs by their start time", () => {
    expect(liveRunId(new Date("2026-11-29T18:52:09.123Z"))).toBe("live-20261129-185209");
  });
});
