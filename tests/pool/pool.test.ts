/**
 * The projection pool with its real workers (dist-workers/projection.mjs, built by the test setup)
 * over real databases: timelines, searches and diffs built in it match the plain projections; a
 * worker killed mid-build fails that build with a typed error and the next build succeeds on a
 * fresh worker; a task past its time limit is stopped; a full queue refuses at once; a task's own
 * typed error comes back with its code; and the reading thread keeps ticking while a big run is
 * built.
 */
import { PerformanceObserver } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { writeBigRun } from "@/bench/big-runs";
import { billingAgent } from "@/lib/demo/agents";
import { diffRecords } from "@/lib/inspect/diff";
import { renderMermaid } from "@/lib/inspect/mermaid";
import { outline } from "@/lib/inspect/outline";
import { packDiff } from "@/lib/inspect/packed-diff";
import { unpackList } from "@/lib/inspect/packed";
import { searchRecords } from "@/lib/inspect/search";
import { timelineOf } from "@/lib/inspect/timeline";
import { isBacktrackError } from "@/lib/journal/errors";
import { pageOf } from "@/lib/journal/page";
import { pooledDiff } from "@/lib/pool/diffs";
import { ProjectionPool } from "@/lib/pool/pool";
import { PooledSearch } from "@/lib/pool/search";
import { PooledTimelines } from "@/lib/pool/timelines";
import { NO_STEPS } from "@/lib/inspect/timeline";
import { openStore, type PostgresStore } from "@/lib/store";
import { embeddedFolder, freshServerDatabase } from "../helpers/databases";
import { timelineFacts } from "../helpers/timelines";

const DATABASES = [
  {
    name: "server",
    open: async () => {
      const database = await freshServerDatabase();
      const store = await openStore({ url: database.url });
      return { store, done: async () => (await store.close(), await database.drop()) };
    },
  },
  {
    name: "embedded",
    open: async () => {
      const folder = embeddedFolder();
      const store = await openStore({ url: folder.url });
      return { store, done: async () => (await store.close(), folder.remove()) };
    },
  },
];

describe.each(DATABASES)("the pool over the $name database", (database) => {
  let store: PostgresStore;
  let done: () => Promise<void>;
  let pool: ProjectionPool;

  beforeAll(async () => {
    ({ store, done } = await database.open());
    pool = new ProjectionPool({ threads: 2 });
    await billingAgent(store).run("order-123", "Please charge order 123.");
    await writeBigRun(store, "big-a", 12_000);
    await writeBigRun(store, "big-b", 12_000, 1_000);
  });
  afterAll(async () => {
    await pool.close();
    await done();
  });

  it("builds a run's timeline as timelineOf does, and reads only new records when the run grows", async () => {
    const pages: number[] = [];
    const counting = {
      run: (id: string) => store.run(id),
      history: store.history.bind(store),
      historyPage: (id: string, options?: { from?: number }) => (pages.push(options?.from ?? 0), store.historyPage(id, options)),
    };
    const timelines = new PooledTimelines(counting, pool, { pageSize: 2_500 });
    expect(timelineFacts((await timelines.timeline("big-a"))!)).toEqual(timelineFacts(timelineOf(outline(await store.history("big-a")))));
    expect(pages).toEqual([0, 2_500, 5_000, 7_500, 10_000]);
    await timelines.timeline("order-123");
    const before = (await store.run("order-123"))!.lastSeq;
    pages.length = 0;
    for (const step of ["a", "b"]) await store.append({ runId: "order-123", name: `after-${step}`, kind: "value", payload: { step } });
    const grown = (await timelines.timeline("order-123"))!;
    expect(grown.entries.at(grown.entries.length - 1)?.name).toBe("after-b");
    expect(grown.entries.length).toBe(before + 3);
    expect(pages).toEqual([before + 1]);
    expect(await timelines.timeline("no-such-run")).toBeUndefined();
  });

  it("writes a run's whole flowchart as renderMermaid does, and refuses one past the limit with its typed error", async () => {
    const timeline = (await new PooledTimelines(store, pool).timeline("big-a"))!;
    expect(await pool.run("mermaid", { nodes: [...timeline.nodeLists], limitBytes: 4 * 1024 * 1024 })).toBe(await renderMermaid(store, "big-a"));
    const refused = await pool.run("mermaid", { nodes: [...timeline.nodeLists], limitBytes: 10_000 }).catch((error: unknown) => error);
    expect(isBacktrackError(refused, "answer_too_large")).toBe(true);
    expect((refused as Error).message).toContain("?aggregate=1");
  });

  it("diffs two runs as diffRecords does", async () => {
    const [runA, runB] = [(await store.run("big-a"))!, (await store.run("big-b"))!];
    const diff = await pooledDiff(store, pool, runA, runB, { realign: false, pageSeqs: 3_000 });
    const expected = packDiff(diffRecords(await store.history("big-a"), await store.history("big-b"), { a: "big-a", b: "big-b" }));
    expect(diff.head).toEqual(expected.head);
    expect(unpackList(diff.entries)).toEqual(unpackList(expected.entries));
    expect(diff.head.divergentAt).not.toBeNull();
  });

  it("searches a run as searchRecords does, and a bad query comes back as its typed error", async () => {
    const searches = new PooledSearch(store, pool, undefined, { pageSize: 4 });
    const run = (await store.run("order-123"))!;
    expect(await searches.search(run, "chargecard")).toEqual(searchRecords(await store.history("order-123"), "chargecard"));
    const refused = await searches.search(run, "/(a+)+/").catch((error: unknown) => error);
    expect(isBacktrackError(refused, "bad_input")).toBe(true);
  });
});

describe("a pool's faults", () => {
  let store: PostgresStore;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await freshServerDatabase();
    drop = database.drop;
    store = await openStore({ url: database.url });
    await writeBigRun(store, "big", 30_000);
  });
  afterAll(async () => {
    await store.close();
    await drop();
  });

  it("fails the build whose worker is killed, keeps what it had, and builds the next on a fresh worker", async () => {
    const pool = new ProjectionPool({ threads: 1 });
    try {
      const timelines = new PooledTimelines(store, pool, { pageSize: 1_000 });
      const run = vi.spyOn(pool, "run");
      let killed: Promise<number> | undefined;
      run.mockImplementation(async function (this: ProjectionPool, ...args) {
        const task = ProjectionPool.prototype.run.apply(this, args);
        // Kill the one worker while it folds the fourth page.
        if (run.mock.calls.length === 4) killed = pool.threads[0]!.terminate();
        return task;
      } as ProjectionPool["run"]);
      const failed = await timelines.timeline("big").catch((error: unknown) => error);
      expect(await killed).toBeDefined();
      expect(isBacktrackError(failed, "worker_failed")).toBe(true);
      expect((failed as { retryAfterSeconds?: number }).retryAfterSeconds).toBeGreaterThan(0);
      const before = run.mock.calls.length;
      const timeline = (await timelines.timeline("big"))!;
      // Three pages were kept; the rest were read on the fresh worker.
      expect(run.mock.calls.length - before).toBe(27);
      expect(timeline.entries.length).toBe(30_000);
      expect(timelineFacts(timeline)).toEqual(timelineFacts(timelineOf(outline(await store.history("big")))));
    } finally {
      await pool.close();
    }
  });

  it("stops a task past its time limit with its worker, and runs the next one", async () => {
    const pool = new ProjectionPool({ threads: 1, taskTimeoutMs: 1 });
    try {
      const page = await store.historyPage("big", { from: 0, limit: 30_000 });
      const input = { runId: "big", page: pageOf(await store.history("big")), totals: NO_STEPS };
      const late = await pool.run("outlinePage", input).catch((error: unknown) => error);
      expect(isBacktrackError(late, "worker_timeout")).toBe(true);
      const chunk = await pool.run("outlinePage", { runId: "big", page, totals: NO_STEPS }, { timeoutMs: 60_000 });
      expect(chunk.count).toBe(30_000);
    } finally {
      await pool.close();
    }
  });

  it("refuses a task at once when its queue is full", async () => {
    const pool = new ProjectionPool({ threads: 1, queue: 1 });
    try {
      const input = { runId: "big", page: pageOf(await store.history("big", { limit: 10_000 })), totals: NO_STEPS };
      const results = await Promise.allSettled([pool.run("outlinePage", input), pool.run("outlinePage", input), pool.run("outlinePage", input)]);
      const refused = results.filter((result) => result.status === "rejected");
      expect(refused.length).toBeGreaterThanOrEqual(1);
      for (const result of refused) expect(isBacktrackError((result as PromiseRejectedResult).reason, "pool_busy")).toBe(true);
      expect(results[0]!.status).toBe("fulfilled");
    } finally {
      await pool.close();
    }
  });

  it("leaves the reading thread free while it builds a big run", async () => {
    const pool = new ProjectionPool({ threads: 2 });
    try {
      const records = await store.history("big");
      // What the same build takes on this thread in one go (the second of two: the first warms up).
      timelineOf(outline(records));
      const started = performance.now();
      timelineOf(outline(records));
      const syncMs = performance.now() - started;
      const { longestMs } = await ticking(() => new PooledTimelines(store, pool).timeline("big"));
      expect(longestMs).toBeLessThan(syncMs / 2);
    } finally {
      await pool.close();
    }
  });
});

/**
 * Runs `work` while a 1 ms interval ticks: the longest time without a tick, less the garbage
 * collector's pauses within it (they stop every thread of the process).
 */
async function ticking<T>(work: () => Promise<T>): Promise<{ value: T; longestMs: number }> {
  const ticks = [performance.now()];
  const pauses: Array<{ startTime: number; duration: number }> = [];
  const collector = new PerformanceObserver((list) => pauses.push(...list.getEntries()));
  collector.observe({ entryTypes: ["gc"] });
  const timer = setInterval(() => ticks.push(performance.now()), 1);
  let value: T;
  try {
    value = await work();
    ticks.push(performance.now());
  } finally {
    clearInterval(timer);
  }
  await new Promise((resume) => setTimeout(resume, 20));
  pauses.push(...collector.takeRecords());
  collector.disconnect();
  let longestMs = 0;
  for (let index = 1; index < ticks.length; index += 1) {
    const [from, to] = [ticks[index - 1]!, ticks[index]!];
    const collecting = pauses.reduce((sum, pause) => sum + Math.max(0, Math.min(to, pause.startTime + pause.duration) - Math.max(from, pause.startTime)), 0);
    longestMs = Math.max(longestMs, to - from - collecting);
  }
  return { value, longestMs };
}
