/**
 * Retention (issue 18) on every store: pruneRuns removes old root runs with their sub-agent runs,
 * records and leases, in batches; keeps recent runs, fork sources (unless told), and what the
 * filters leave out; a dry run deletes nothing; sessions go by last activity. The cutoff is set
 * between two groups of runs written a little apart (the `now` option), so nothing waits days.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Journal, Leaser } from "@/lib/journal/ports";
import { InvalidDurationError, parseDuration, pruneRuns, retentionFromEnv, startRetention, type PruneResult } from "@/lib/retention";
import { SessionService } from "@/lib/sessions";
import type { PostgresStore } from "@/lib/store/postgres-store";
import { STORE_KINDS } from "../helpers/databases";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function writeRun(store: Journal, runId: string, options: { agent?: string; status?: "complete" | "failed"; parentRunId?: string; forkedFrom?: string } = {}) {
  const header: Record<string, unknown> = { input: `input of ${runId}`, agent: options.agent ?? "auditor" };
  if (options.parentRunId) header.parentRunId = options.parentRunId;
  if (options.forkedFrom) header.forkedFrom = { runId: options.forkedFrom, at: 1 };
  await store.append({ runId, name: "run:start", kind: "header", payload: header });
  await store.append({ runId, name: "step", kind: "value", payload: { runId } });
  if (options.status === "complete") await store.append({ runId, name: "run:complete", kind: "value", payload: { text: "done" } });
  if (options.status === "failed") await store.setStatus(runId, { status: "failed", error: "boom" });
}

async function ids(store: Journal): Promise<string[]> {
  const found: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.runs({ limit: 200, cursor });
    found.push(...page.runs.map((run) => run.runId));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return found.sort();
}

const DAY_MS = 24 * 60 * 60 * 1000;

describe("parseDuration", () => {
  it("reads a whole number and a unit", () => {
    expect(parseDuration("30d")).toBe(30 * 86_400_000);
    expect(parseDuration("12h")).toBe(12 * 3_600_000);
    expect(parseDuration(" 90m ")).toBe(90 * 60_000);
    expect(parseDuration("2W")).toBe(14 * 86_400_000);
    expect(parseDuration("45s")).toBe(45_000);
  });

  it("refuses anything else with a typed bad-input error", () => {
    for (const text of ["", "30", "d", "1.5d", "-3d", "0d", "30 days", "3y", "99999999w"]) {
      const error = (() => {
        try {
          parseDuration(text);
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(error, text).toBeInstanceOf(InvalidDurationError);
      expect(error).toMatchObject({ code: "bad_input", text });
    }
  });

  it("reads BACKTRACK_RETENTION, unset meaning none", () => {
    expect(retentionFromEnv({ BACKTRACK_RETENTION: "30d" })).toBe(30 * 86_400_000);
    expect(retentionFromEnv({})).toBeUndefined();
    expect(() => retentionFromEnv({ BACKTRACK_RETENTION: "monthly" })).toThrow(InvalidDurationError);
  });
});

describe.each(STORE_KINDS)("pruneRuns: $name", (kind) => {
  let store: Journal & { close(): Promise<void> };
  /** Runs written before `cutoff` are old; after it, recent. */
  let cutoff: number;
  const at = (options: Partial<Parameters<typeof pruneRuns>[1]> = {}) => ({ olderThan: 1_000, now: cutoff + 1_000, ...options });

  beforeEach(async () => {
    store = await kind.open();
    await writeRun(store, "old-complete", { status: "complete" });
    await writeRun(store, "old-failed", { status: "failed", agent: "planner" });
    await writeRun(store, "old-running");
    await writeRun(store, "old-running/sub", { parentRunId: "old-running", status: "complete" });
    await writeRun(store, "old-source", { status: "complete" });
    await writeRun(store, "old-fork", { status: "complete", forkedFrom: "old-source" });
    await (store as unknown as Leaser).acquireLease("old-running", "someone", 60_000);
    await pause(60);
    cutoff = Date.now();
    await pause(60);
    await writeRun(store, "new-complete", { status: "complete" });
  });
  afterEach(async () => {
    await store.close();
  });

  it("reports what a dry run would prune and deletes nothing", async () => {
    const result = await pruneRuns(store, at({ dryRun: true }));
    expect(result).toMatchObject({ dryRun: true, runs: 5, sessions: 0 });
    expect([...result.runIds].sort()).toEqual(["old-complete", "old-failed", "old-fork", "old-running", "old-running/sub"]);
    expect(result.records).toBeGreaterThanOrEqual(10);
    expect(await ids(store)).toHaveLength(7);
  });

  it("prunes old runs with their sub-agent runs, records and leases, and keeps recent runs and fork sources", async () => {
    const result = await pruneRuns(store, at({ batchSize: 2 }));
    expect(result).toMatchObject({ dryRun: false, runs: 5, leases: 1 });
    expect(result.batches).toBeGreaterThanOrEqual(2);
    expect(await ids(store)).toEqual(["new-complete", "old-source"]);
    expect(await store.history("old-running/sub")).toEqual([]);
    expect(await store.record("old-complete", "step")).toBeUndefined();
    // Once named, the fork source goes too (its fork went above).
    expect((await pruneRuns(store, at({ includeKept: true }))).runIds).toEqual(["old-source"]);
    expect(await ids(store)).toEqual(["new-complete"]);
  });

  it("keeps a fork source while its fork stays, even when the fork is recent", async () => {
    await writeRun(store, "new-fork", { forkedFrom: "old-complete" });
    const result = await pruneRuns(store, at());
    expect(result.runIds).not.toContain("old-complete");
    expect(await ids(store)).toEqual(["new-complete", "new-fork", "old-complete", "old-source"]);
  });

  it("prunes only the statuses and the agent asked for", async () => {
    const byStatus = await pruneRuns(store, at({ statuses: ["failed"] }));
    expect(byStatus.runIds).toEqual(["old-failed"]);
    const byAgent = await pruneRuns(store, at({ agent: "nobody" }));
    expect(byAgent.runs).toBe(0);
    const completeOfAuditor = await pruneRuns(store, at({ statuses: ["complete"], agent: "auditor" }));
    expect([...completeOfAuditor.runIds].sort()).toEqual(["old-complete", "old-fork"]);
    expect(await ids(store)).toEqual(["new-complete", "old-running", "old-running/sub", "old-source"]);
  });

  it("keeps a run that is old but was written to after the cutoff", async () => {
    await store.append({ runId: "old-complete", name: "late", kind: "value", payload: 1 });
    await store.setStatus("old-complete", { status: "failed", error: "late report" });
    const result = await pruneRuns(store, at());
    expect(result.runIds).not.toContain("old-complete");
  });

  it("refuses bad options before deleting anything", async () => {
    await expect(pruneRuns(store, { olderThan: 0 })).rejects.toMatchObject({ code: "bad_input" });
    await expect(pruneRuns(store, at({ batchSize: 0 }))).rejects.toMatchObject({ code: "bad_input" });
    await expect(pruneRuns(store, at({ statuses: [] }))).rejects.toMatchObject({ code: "bad_input" });
    expect(await ids(store)).toHaveLength(7);
  });

  it("prunes on a schedule, at once and again after each interval, until stopped", async () => {
    const passes: PruneResult[] = [];
    // A year: nothing here is that old, so these passes prune nothing, however slow the machine.
    const retention = startRetention(store, { olderThan: 365 * DAY_MS, every: 50, onPruned: (result) => passes.push(result) });
    await expect.poll(() => passes.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    await retention.stop();
    const count = passes.length;
    await pause(120);
    expect(passes.every((pass) => pass.runs === 0)).toBe(true);
    expect(passes.length).toBe(count);
    const errors: unknown[] = [];
    const pruning = startRetention(store, { olderThan: 1, every: 60_000, onPruned: (result) => passes.push(result), onError: (error) => errors.push(error) });
    await expect.poll(() => passes.length, { timeout: 5_000 }).toBe(count + 1);
    await pruning.stop();
    expect(errors).toEqual([]);
    expect(passes.at(-1)!.runs).toBe(6);
    expect(await ids(store)).toEqual(["old-source"]);
  });
});

describe.each(STORE_KINDS.filter((kind) => kind.name !== "memory"))("pruning keeps pinned runs: $name", (kind) => {
  it("keeps a run pinned into a suite unless kept runs are included", async () => {
    const store = (await kind.open()) as PostgresStore;
    try {
      await writeRun(store, "old-pinned", { status: "complete" });
      await writeRun(store, "old-loose", { status: "complete" });
      await store.client.query("INSERT INTO suite_pins (suite, run_id, pinned_by) VALUES ('smoke', 'old-pinned', 'test')", []);
      await pause(60);
      const now = Date.now() + 1_000;
      expect((await pruneRuns(store, { olderThan: 1_000, now })).runIds).toEqual(["old-loose"]);
      expect(await ids(store)).toEqual(["old-pinned"]);
      expect((await pruneRuns(store, { olderThan: 1_000, now, includeKept: true })).runIds).toEqual(["old-pinned"]);
    } finally {
      await store.close();
    }
  });
});

describe.each(STORE_KINDS.filter((kind) => kind.name !== "memory"))("pruning sessions: $name", (kind) => {
  it("removes sessions idle since before the cutoff with their events, and keeps the others", async () => {
    const store = (await kind.open()) as PostgresStore;
    try {
      const sessions = new SessionService(store.client);
      const old = await sessions.create({ app: "shop", user: "ada", id: "old-session" });
      await sessions.appendEvent(old, { author: "user", actions: { stateDelta: { cart: 1 } } });
      await pause(60);
      const cutoff = Date.now();
      await pause(60);
      await sessions.create({ app: "shop", user: "ada", id: "new-session" });
      const dry = await pruneRuns(store, { olderThan: 1_000, now: cutoff + 1_000, dryRun: true });
      expect(dry.sessions).toBe(1);
      expect(await sessions.get("old-session")).toBeDefined();
      const result = await pruneRuns(store, { olderThan: 1_000, now: cutoff + 1_000 });
      expect(result.sessions).toBe(1);
      expect(await sessions.get("old-session")).toBeUndefined();
      expect(await sessions.get("new-session")).toBeDefined();
      const events = await store.client.query<{ count: string }>("SELECT count(*)::text AS count FROM session_events WHERE session_id = 'old-session'");
      expect(events[0]!.count).toBe("0");
    } finally {
      await store.close();
    }
  });
});
