/**
 * The recovery board and the actions the inspector and the CLI share: why a run waits (pure),
 * the board over a real database with a lease, resuming after an approval, recovery's sentence,
 * and importing runs all or nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoRegistry } from "@/lib/demo/registry";
import { RECOVERY_RUNS } from "@/lib/demo/recovery-runs";
import { importRuns } from "@/lib/journal/import";
import { toJsonl } from "@/lib/journal/jsonl";
import { recoveryCounts, recoverySentence, resumeRoot } from "@/lib/recovery/actions";
import { recoveryBoard, waitingFor } from "@/lib/recovery/board";
import { approve } from "@/lib/recovery/pause-decisions";
import type { PostgresStore } from "@/lib/store/postgres-store";
import { STORE_KINDS } from "../helpers/databases";

describe("waitingFor", () => {
  it("says why each kind of unfinished run waits, and what a person can do", () => {
    const base = { runId: "r", message: "m" };
    expect(waitingFor("paused", { ...base, reason: "approval", toolName: "issueRefund", args: { amount: 900 } })).toEqual({
      kind: "approval",
      text: 'pending approval: issueRefund {"amount":900}',
      action: "decide",
    });
    expect(waitingFor("paused", { ...base, reason: "interrupt", question: "Friday or Saturday?" })).toEqual({
      kind: "interrupt",
      text: "interrupted: Friday or Saturday?",
      action: "answer",
    });
    expect(waitingFor("paused", { ...base, reason: "sleep", wakeAt: "2026-12-01T09:00:00.000Z" })).toMatchObject({
      kind: "sleep",
      text: "sleeping until 2026-12-01T09:00:00.000Z",
      action: null,
    });
    expect(waitingFor("paused", { ...base, reason: "halt", message: "outcome unknown" })).toMatchObject({ kind: "halt", text: "halted on an unknown outcome: outcome unknown" });
    expect(waitingFor("paused", { ...base, reason: "halt", halt: "fork_effect", toolName: "chargeCard", args: { amount: 900 } })).toEqual({
      kind: "fork_effect",
      text: 'fork halted before chargeCard {"amount":900}: it has external effects and has not run',
      action: "effect",
    });
    expect(waitingFor("failed", null, "boom")).toMatchObject({ kind: "failed", text: "failed: boom" });
    expect(waitingFor("running", null)).toMatchObject({ kind: "running", action: null });
  });

  it("keeps long arguments to one line", () => {
    const text = waitingFor("paused", { runId: "r", message: "m", reason: "approval", toolName: "t", args: { blob: "x".repeat(500) } }).text;
    expect(text.length).toBeLessThan(160);
    expect(text.endsWith("…")).toBe(true);
  });
});

describe("recoverySentence", () => {
  it("counts outcomes for people", () => {
    const runs = [
      { runId: "a", outcome: "complete" as const },
      { runId: "b", outcome: "paused" as const },
      { runId: "c", outcome: "paused" as const },
      { runId: "d", outcome: "leased" as const },
    ];
    expect(recoveryCounts(runs)).toMatchObject({ complete: 1, paused: 2, failed: 0, leased: 1 });
    expect(recoverySentence({ n: 3, runs })).toBe("recovered 3 runs: 1 driven to completion, 2 paused, 0 failed; 1 held by another process");
    expect(recoverySentence({ n: 0, runs: [] })).toBe("nothing to recover: every run is complete");
  });
});

describe.each(STORE_KINDS.filter((kind) => kind.name !== "memory"))("recovery board: $name", (kind) => {
  let store: PostgresStore;
  beforeAll(async () => {
    store = (await kind.open()) as PostgresStore;
    for (const run of RECOVERY_RUNS) await run.write(store).catch(() => undefined);
  });
  afterAll(async () => {
    await store.close();
  });

  it("lists each waiting demo run with its reason and its lease holder and expiry", async () => {
    expect(await store.acquireLease("follow-up-3", "worker-7", 60_000)).toBe(true);
    const board = await recoveryBoard(store);
    expect(board.map((entry) => [entry.runId, entry.waiting.kind])).toEqual([
      ["concierge-5", "interrupt"],
      ["follow-up-3", "sleep"],
      ["payout-9", "halt"],
      ["refund-900", "approval"],
    ]);
    const leased = board.find((entry) => entry.runId === "follow-up-3");
    expect(leased?.lease).toMatchObject({ holder: "worker-7", expired: false });
    expect(Date.parse(leased?.lease?.expiresAt ?? "")).toBeGreaterThan(Date.now());
    expect(board.find((entry) => entry.runId === "refund-900")).toMatchObject({ agent: "support", lease: null, waiting: { action: "decide" } });
    // The board reads agent and last update from the enumeration itself (no query per run): the same as each summary row.
    for (const entry of board) {
      const summary = await store.run(entry.runId);
      expect([entry.agent, entry.updatedAt]).toEqual([summary?.agent, summary?.updatedAt]);
    }
    await store.releaseLease("follow-up-3", "worker-7");
  });

  it("approving the refund and resuming its root completes it; it leaves the board", async () => {
    const decided = await approve(store, "refund-900", { approved: true, by: "reviewer" });
    expect(decided.created).toBe(true);
    const resumed = await resumeRoot(store, demoRegistry(), "refund-900");
    expect(resumed).toMatchObject({ root: "refund-900", resumed: { outcome: "complete" }, run: { status: "complete" } });
    expect((await recoveryBoard(store)).map((entry) => entry.runId)).not.toContain("refund-900");
  });

  it("imports runs all or nothing", async () => {
    const text = toJsonl(await store.history("refund-900")).replaceAll("refund-900", "refund-copy");
    expect(await importRuns(store, text)).toMatchObject({ runs: ["refund-copy"] });
    expect((await store.run("refund-copy"))?.status).toBe("complete");
    await expect(importRuns(store, text)).rejects.toMatchObject({ code: "run_exists", message: expect.stringContaining("already exists") });
    await expect(importRuns(store, "{not json")).rejects.toMatchObject({ code: "invalid_record", message: expect.stringContaining("line 1") });
  });
});
