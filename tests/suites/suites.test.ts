/**
 * Suites on every store (MemStore, PGlite, the server): pins, a batch under a changed model and
 * under the recorded outputs with several replays at once, the comparison with the previous batch,
 * and export/import all or nothing. The demo's runs are written by the real loop.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoRegistry } from "@/lib/demo/registry";
import { isBacktrackError } from "@/lib/journal/errors";
import type { Journal } from "@/lib/journal/ports";
import { bulkRunIds, parseRunFilter } from "@/lib/suites/bulk";
import { pinRun, suiteStore, unpinRun } from "@/lib/suites/pins";
import { compareBatches } from "@/lib/suites/report";
import { createBatch, driveBatch, runSuite } from "@/lib/suites/run-suite";
import { exportSuite, importSuite } from "@/lib/suites/transfer";
import { STORE_KINDS } from "../helpers/databases";
import { writeDemoRuns } from "../regression/helpers";

async function fileOf(store: Journal, suite: string): Promise<string[]> {
  let text = "";
  for await (const chunk of exportSuite(store, suiteStore(store), suite)) text += chunk;
  return text.split("\n").filter((line) => line !== "");
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isBacktrackError(error)) return error.code;
    throw error;
  }
  return "no error";
}

describe.each(STORE_KINDS)("suites on $name", (kind) => {
  let store: Journal & { close(): Promise<void> };
  const registry = demoRegistry();

  beforeAll(async () => {
    store = await kind.open();
    await writeDemoRuns(store, "order-123", "order-404", "trip-42");
  }, 120_000);
  afterAll(() => store.close());

  it("pins a run once, refuses unknown runs and bad names, and unpins", async () => {
    const suites = suiteStore(store);
    const first = await pinRun(store, suites, { suite: "pins", runId: "order-123", pinnedBy: "ada", note: "the $500 charge" });
    expect(first).toMatchObject({ created: true, pin: { suite: "pins", runId: "order-123", pinnedBy: "ada", note: "the $500 charge" } });
    expect((await pinRun(store, suites, { suite: "pins", runId: "order-123", pinnedBy: "bob" })).created).toBe(false);
    expect(await codeOf(pinRun(store, suites, { suite: "pins", runId: "no-such-run", pinnedBy: "ada" }))).toBe("not_found");
    expect(await codeOf(pinRun(store, suites, { suite: "bad name/..", runId: "order-123", pinnedBy: "ada" }))).toBe("bad_input");
    expect((await suites.pins("pins")).map((pin) => [pin.runId, pin.pinnedBy])).toEqual([["order-123", "ada"]]);
    expect((await suites.pinsOf("order-123")).map((pin) => pin.suite)).toEqual(["pins"]);
    await unpinRun(suites, "pins", "order-123");
    expect(await suites.pins("pins")).toEqual([]);
    expect(await codeOf(unpinRun(suites, "pins", "order-123"))).toBe("not_found");
  });

  it("finds the chargeCard divergence under demo/v2, passes under demo/v1, and compares the batches", async () => {
    const suites = suiteStore(store);
    await pinRun(store, suites, { suite: "smoke", runId: "order-123", pinnedBy: "ada" });
    await pinRun(store, suites, { suite: "smoke", runId: "order-404", pinnedBy: "ada" });
    const seen: string[] = [];
    const changed = await runSuite({ journal: store, suites, registry, onResult: (result) => seen.push(result.runId) }, { suite: "smoke", model: "demo/v2" });
    expect(changed.ok).toBe(false);
    expect(seen.sort()).toEqual(["order-123", "order-404"]);
    const order = changed.results.find((result) => result.runId === "order-123");
    expect(order).toMatchObject({ status: "changed", divergentAt: 0, replayRunId: `order-123~${changed.batch.batchId}` });
    expect(order?.divergence).toBe("model step 0 calls chargeCard with amount 500 → 5000");
    expect(changed.batch).toMatchObject({ suite: "smoke", model: "demo/v2", status: "done", total: 2, scorer: "same-decisions" });
    expect(await store.run(`order-123~${changed.batch.batchId}`)).toMatchObject({ status: "complete" });

    const fixed = await runSuite({ journal: store, suites, registry }, { suite: "smoke", model: "demo/v1" });
    expect(fixed.ok).toBe(true);
    expect(fixed.counts).toMatchObject({ pass: 2, changed: 0 });
    expect((await suites.previousBatch(fixed.batch.batchId))?.batchId).toBe(changed.batch.batchId);
    expect(compareBatches(changed.results, fixed.results)).toEqual({ newlyChanged: [], fixed: ["order-123", "order-404"], stillChanged: [] });
    expect(compareBatches(fixed.results, changed.results)).toEqual({ newlyChanged: ["order-123", "order-404"], fixed: [], stillChanged: [] });
    const summary = (await suites.suites()).find((suite) => suite.suite === "smoke");
    expect(summary).toMatchObject({ pins: 2, lastBatch: { batchId: fixed.batch.batchId, counts: { pass: 2, changed: 0 } } });
    expect((await suites.batches("smoke")).map((batch) => batch.batchId)).toEqual([fixed.batch.batchId, changed.batch.batchId]);
  }, 60_000);

  it("replays against the recorded outputs with several at once, and refuses what cannot run before storing a batch", async () => {
    const suites = suiteStore(store);
    for (const runId of ["order-123", "order-404", "trip-42"]) await pinRun(store, suites, { suite: "recorded", runId, pinnedBy: "ci" });
    const report = await runSuite({ journal: store, suites, registry, concurrency: 3 }, { suite: "recorded" });
    expect(report.results.map((result) => [result.runId, result.status])).toEqual([
      ["order-123", "pass"],
      ["order-404", "pass"],
      ["trip-42", "pass"],
    ]);
    expect(await codeOf(runSuite({ journal: store, suites, registry }, { suite: "empty" }))).toBe("not_found");
    expect(await codeOf(runSuite({ journal: store, suites, registry }, { suite: "recorded", model: "demo/v9" }))).toBe("not_found");
    expect(await codeOf(runSuite({ journal: store, suites, registry, concurrency: 0 }, { suite: "recorded" }))).toBe("bad_input");
    expect(await suites.batches("recorded")).toHaveLength(1);
    expect(await suites.batches("empty")).toHaveLength(0);
  }, 60_000);

  it("reports a pinned run that is gone as an error, not a failed batch", async () => {
    const suites = suiteStore(store);
    await writeDemoRuns(store, "report-7");
    await pinRun(store, suites, { suite: "gone", runId: "report-7", pinnedBy: "ci" });
    await store.deleteRun("report-7");
    const report = await runSuite({ journal: store, suites, registry }, { suite: "gone" });
    expect(report.batch.status).toBe("done");
    expect(report.results[0]).toMatchObject({ runId: "report-7", status: "error", replayRunId: null });
    expect(report.results[0]?.reason).toContain("report-7");
  }, 60_000);

  it("exports a suite and imports it elsewhere all or nothing", async () => {
    const suites = suiteStore(store);
    await pinRun(store, suites, { suite: "move", runId: "trip-42", pinnedBy: "ada", note: "sub-agents" });
    const lines = await fileOf(store, "move");
    expect(JSON.parse(lines[0] as string)).toMatchObject({ format: "backtrack-suite/1", suite: "move", pins: [{ runId: "trip-42", pinnedBy: "ada", note: "sub-agents" }] });
    const target = await kind.open();
    try {
      const targetSuites = suiteStore(target);
      // A pin whose run is not in the file: nothing lands, neither runs nor pins.
      const header = JSON.parse(lines[0] as string) as { pins: unknown[] };
      const broken = [
        JSON.stringify({ ...header, pins: [...header.pins, { runId: "elsewhere", pinnedBy: "x", pinnedAt: new Date().toISOString(), note: null }] }),
        ...lines.slice(1),
      ];
      expect(await codeOf(importSuite(target, targetSuites, broken))).toBe("invalid_record");
      expect((await target.runs()).runs).toEqual([]);
      expect(await targetSuites.suites()).toEqual([]);
      await expect(importSuite(target, targetSuites, [...lines, "{not json"])).rejects.toMatchObject({
        code: "invalid_record",
        message: expect.stringContaining(`line ${lines.length + 1}`),
      });
      expect((await target.runs()).runs).toEqual([]);

      const imported = await importSuite(target, targetSuites, lines, { rename: "ci" });
      expect(imported).toMatchObject({ suite: "ci", pins: 1 });
      expect(imported.runs).toContain("trip-42");
      expect(imported.runs.length).toBeGreaterThan(1);
      expect((await targetSuites.pins("ci")).map((pin) => [pin.runId, pin.note])).toEqual([["trip-42", "sub-agents"]]);
      expect(await codeOf(importSuite(target, targetSuites, lines, { rename: "again" }))).toBe("run_exists");
      expect(await targetSuites.pins("again")).toEqual([]);
      const report = await runSuite({ journal: target, suites: targetSuites, registry }, { suite: "ci" });
      expect(report.counts.pass).toBe(1);
    } finally {
      await target.close();
    }
  }, 60_000);

  it("names bulk targets by id or filter, pins many at once, and replays a selection as a batch", async () => {
    const suites = suiteStore(store);
    expect(parseRunFilter("status=complete&agent=billing")).toEqual({ status: "complete", agent: "billing" });
    expect(await codeOf(Promise.resolve().then(() => parseRunFilter("colour=red")))).toBe("bad_input");
    const billing = await bulkRunIds(store, { filter: "agent=billing&search=order-" });
    expect(billing).toContain("order-123");
    expect(billing.every((runId) => runId.startsWith("order-"))).toBe(true);
    expect(await codeOf(bulkRunIds(store, { runIds: ["order-123", "nope"] }))).toBe("not_found");
    expect(await codeOf(bulkRunIds(store, {}))).toBe("bad_input");
    expect(await suites.pinMany("many", ["order-123", "order-404"], "inspector")).toBe(2);
    expect(await suites.pinMany("many", ["order-404", "trip-42"], "inspector")).toBe(1);
    expect((await suites.pins("many")).map((pin) => pin.runId).sort()).toEqual(["order-123", "order-404", "trip-42"]);
    const batch = await createBatch({ suites, registry }, { suite: "bulk", runIds: ["order-404", "order-404", "trip-42"] });
    expect(batch.total).toBe(2);
    const report = await driveBatch({ journal: store, suites, registry }, batch.batchId);
    expect(report.counts.pass).toBe(2);
  }, 60_000);
});
