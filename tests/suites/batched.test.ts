/**
 * What a batch does in bulk, on every store: the pinned runs read a chunk at a time (PinnedRuns
 * over RunReader), the results stored a group a statement (ResultWriter over setResults) — all or
 * none of a group, in order, and a failed write failing the batch rather than being lost.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoRegistry } from "@/lib/demo/registry";
import { isLister, isRunReader, type Journal } from "@/lib/journal/ports";
import { suiteStore } from "@/lib/suites/pins";
import { ResultWriter } from "@/lib/suites/result-writer";
import { driveBatch, createBatch } from "@/lib/suites/run-suite";
import { PinnedRuns } from "@/lib/suites/snapshot";
import type { ResultEntry, SuiteStore } from "@/lib/suites/store";
import type { BatchResult, ResultUpdate } from "@/lib/suites/types";
import { STORE_KINDS } from "../helpers/databases";
import { writeDemoRuns } from "../regression/helpers";

const passed = (runId: string): ResultUpdate => ({ status: "pass", replayRunId: `${runId}~r`, divergentAt: null, divergence: null, reason: null, score: 1 });

/** Counts the journal's reads of each run (the calls PinnedRuns exists to save). */
function countingReads(journal: Journal): { journal: Journal; reads: Map<string, number> } {
  const reads = new Map<string, number>();
  const count = (runId: string) => reads.set(runId, (reads.get(runId) ?? 0) + 1);
  const counted = new Proxy(journal, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== "function") return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(target);
      if (key === "run" || key === "history" || key === "record") return (runId: string, ...rest: unknown[]) => (count(runId), bound(runId, ...rest));
      if (key === "readRuns") return (runIds: string[]) => (count(`bulk:${runIds.join(",")}`), bound(runIds));
      return bound;
    },
  });
  return { journal: counted, reads };
}

describe.each(STORE_KINDS)("batched suite work on $name", (kind) => {
  let store: Journal & { close(): Promise<void> };
  const registry = demoRegistry();

  beforeAll(async () => {
    store = await kind.open();
    await writeDemoRuns(store, "order-123", "order-404", "trip-42");
  }, 120_000);
  afterAll(() => store.close());

  it("answers a pinned run's reads from one bulk read a chunk, and every other read from the journal", async () => {
    const { journal, reads } = countingReads(store);
    const pinned = new PinnedRuns(journal, ["order-123", "order-404", "no-such-run", "trip-42"], 3);
    const view = await pinned.view("order-123");
    expect(await view.history("order-123")).toEqual(await store.history("order-123"));
    expect((await view.run("order-123"))?.status).toBe("complete");
    expect((await view.record("order-123", "run:start"))?.kind).toBe("header");
    expect(await view.record("order-123", "turn:0:memctx")).toBeUndefined();
    expect((await view.history("order-123", { from: 1, limit: 2 })).map((record) => record.seq)).toEqual([1, 2]);
    // The chunk read the next runs too; an unknown one is known to be absent, without a read of its own.
    const gone = await pinned.view("no-such-run");
    expect(await gone.run("no-such-run")).toBeUndefined();
    expect(await gone.history("no-such-run")).toEqual([]);
    if (isRunReader(store)) expect([...reads.keys()].filter((key) => !key.startsWith("bulk:"))).toEqual([]);
    // Another run goes to the journal, and the journal's capabilities stay visible.
    expect((await view.run("trip-42"))?.runId).toBe("trip-42");
    expect(reads.get("trip-42")).toBe(1);
    expect(isLister(view)).toBe(isLister(store));
    // trip-42 is past the first chunk: one more bulk read.
    await pinned.view("trip-42");
    if (isRunReader(store)) expect([...reads.keys()].filter((key) => key.startsWith("bulk:"))).toEqual(["bulk:order-123,order-404,no-such-run", "bulk:trip-42"]);
  });

  it("drives a batch whose pinned runs were read in bulk to the same results", async () => {
    const suites = suiteStore(store);
    const { journal, reads } = countingReads(store);
    const batch = await createBatch({ suites, registry }, { suite: "bulk-read", runIds: ["order-123", "order-404", "trip-42"] });
    const stored: string[] = [];
    const report = await driveBatch(
      { journal, suites, registry, concurrency: 2, onResult: (result, done, total) => stored.push(`${result.runId} ${done}/${total}`) },
      batch.batchId,
    );
    expect(report.results.map((result) => [result.runId, result.status])).toEqual([
      ["order-123", "pass"],
      ["order-404", "pass"],
      ["trip-42", "pass"],
    ]);
    // Each result is reported once, after it was stored, with a count that goes 1, 2, 3.
    expect(stored.map((line) => line.split(" ")[1])).toEqual(["1/3", "2/3", "3/3"]);
    expect(stored.map((line) => line.split(" ")[0]).sort()).toEqual(["order-123", "order-404", "trip-42"]);
    // No replay read its pinned run on its own: the bulk read did (trip-42's sub-agent runs are read as before).
    if (isRunReader(store)) for (const runId of ["order-123", "order-404"]) expect(reads.get(runId)).toBeUndefined();
  }, 60_000);

  it("stores a group of results all or none, and leaves a finished result as it was", async () => {
    if (kind.name === "memory") return;
    const suites = suiteStore(store);
    const batch = await suites.createBatch({ batchId: "b-group", suite: "group", model: "recorded", stripMemory: false, scorer: "same-decisions" }, ["a", "b", "c"]);
    // divergentAt beyond a 32-bit integer: the statement fails, and nothing of the group is stored.
    const bad: ResultEntry[] = [
      { runId: "a", update: passed("a") },
      { runId: "b", update: { ...passed("b"), divergentAt: 2 ** 40 } },
    ];
    await expect(suites.setResults(batch.batchId, bad)).rejects.toThrow();
    expect((await suites.results(batch.batchId)).map((result) => result.status)).toEqual(["pending", "pending", "pending"]);
    await suites.setResults(batch.batchId, [{ runId: "a", update: passed("a") }]);
    await suites.setResults(batch.batchId, [
      { runId: "a", update: { ...passed("a"), status: "changed" } },
      { runId: "c", update: { ...passed("c"), divergentAt: 4, divergence: "differs", reason: "why", score: 0.5, status: "changed" } },
    ]);
    expect((await suites.results(batch.batchId)).map((result) => [result.runId, result.status, result.divergentAt, result.score])).toEqual([
      ["a", "pass", null, 1],
      ["b", "pending", null, null],
      ["c", "changed", 4, 0.5],
    ]);
  });

  it("writes results in groups, in the order they finished, and fails on a write that failed", async () => {
    const suites = suiteStore(store);
    const batch = await suites.createBatch({ batchId: "b-writer", suite: "writer", model: "recorded", stripMemory: false, scorer: "same-decisions" }, ["p", "q", "r", "s", "t"]);
    const pending = await suites.results(batch.batchId);
    const groups: string[][] = [];
    const recording: SuiteStore = Object.assign(Object.create(suites) as SuiteStore, {
      setResults: async (batchId: string, entries: readonly ResultEntry[]) => {
        groups.push(entries.map((entry) => entry.runId));
        await suites.setResults(batchId, entries);
      },
    });
    const stored: string[] = [];
    const writer = new ResultWriter(recording, batch.batchId, (result) => stored.push(result.runId), 2, 60_000);
    const finish = (result: BatchResult) => ({ ...result, ...passed(result.runId) });
    for (const result of pending.slice(0, 3)) writer.add(finish(result as BatchResult));
    await writer.flush();
    expect(groups).toEqual([["p", "q"], ["r"]]);
    expect(stored).toEqual(["p", "q", "r"]);
    expect((await suites.results(batch.batchId)).map((result) => result.status)).toEqual(["pass", "pass", "pass", "pending", "pending"]);

    const failing: SuiteStore = Object.assign(Object.create(suites) as SuiteStore, {
      setResults: () => Promise.reject(new Error("the store is gone")),
    });
    const broken = new ResultWriter(failing, batch.batchId, (result) => stored.push(result.runId), 1, 60_000);
    broken.add(finish(pending[3] as BatchResult));
    await expect(broken.flush()).rejects.toThrow("the store is gone");
    expect(() => broken.add(finish(pending[4] as BatchResult))).toThrow("the store is gone");
    expect(stored).toEqual(["p", "q", "r"]);
  });
});
