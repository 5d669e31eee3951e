/**
 * Link previews: the one-line text a shared link unfurls with, on the demo's regression pair
 * written by the real loop, and on hand-made entries for the cases the demo does not have
 * (secret-looking arguments, a status change, runs of different length).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { diffRecords, type DiffEntry, type RunDiff } from "@/lib/inspect/diff";
import { diffHead } from "@/lib/inspect/diff-view";
import { diffPreview, entryChange, recoveryPreview, runPreview, sessionPreview } from "@/lib/inspect/link-preview";
import { secretKeyMatcher } from "@/lib/inspect/redact";
import { MemStore } from "@/lib/journal/memory-store";
import type { RunSummary } from "@/lib/journal/types";
import { writeDemoRuns } from "../regression/helpers";

const isSecret = secretKeyMatcher();
let diff: RunDiff;

beforeAll(async () => {
  const store = new MemStore();
  await writeDemoRuns(store, "order-123", "order-123~v2");
  diff = diffRecords(await store.history("order-123"), await store.history("order-123~v2"), { a: "order-123", b: "order-123~v2" });
});

function entry(status: DiffEntry["status"], kind: DiffEntry["kind"], detail: DiffEntry["detail"]): DiffEntry {
  return { index: 4, step: 2, kind, status, detail };
}

describe("diff previews", () => {
  it("names the first divergence of the demo pair: the chargeCard amount, 500 → 5000", () => {
    const head = diffHead(diff);
    const preview = diffPreview(head, diff.steps[head.divergentAt ?? 0], isSecret);
    expect(preview.title).toBe("order-123 vs order-123~v2 · Backtrack diff");
    expect(preview.description).toBe("order-123 vs order-123~v2: first divergence at row 0, chargeCard amount 500 → 5000. 0 same, 3 changed.");
  });

  it("says when two runs decide identically", () => {
    const same = diffRecords([], [], { a: "x", b: "y" });
    expect(diffPreview(diffHead(same), undefined, isSecret).description).toBe("x vs y: the runs decide identically (0 decisions each).");
  });

  it("never prints a value under a secret-looking key, even when it is what changed", () => {
    const call = (apiKey: string) => [{ toolName: "fetchPage", argsHash: apiKey, args: { url: "https://a.example", apiKey } }];
    const secretOnly = entry("changed", "model", { kindA: "model", kindB: "model", toolCallsA: call("sk-live-AAAA"), toolCallsB: call("sk-live-BBBB") });
    const text = entryChange(secretOnly, isSecret);
    expect(text).not.toMatch(/sk-live/);
    expect(text).toBe("the model steps differ");
    const both = entry("changed", "tool", {
      kindA: "tool",
      kindB: "tool",
      toolName: "login",
      toolNameA: "login",
      toolNameB: "login",
      statusA: "succeeded",
      statusB: "succeeded",
      outputA: { token: "t-1", user: "ann" },
      outputB: { token: "t-2", user: "bob" },
    });
    expect(entryChange(both, isSecret)).toBe('login output user "ann" → "bob"');
  });

  it("names a status change, a renamed call and points only one run has", () => {
    expect(
      entryChange(
        entry("changed", "tool", { kindA: "tool", kindB: "tool", toolName: "pay", toolNameA: "pay", toolNameB: "pay", statusA: "succeeded", statusB: "failed" }),
        isSecret,
      ),
    ).toBe("pay succeeded → failed");
    const calls = (name: string) => [{ toolName: name, argsHash: "h", args: {} }];
    expect(entryChange(entry("changed", "model", { kindA: "model", kindB: "model", toolCallsA: calls("refund"), toolCallsB: calls("charge") }), isSecret)).toBe(
      "calls refund → charge",
    );
    expect(entryChange(entry("missing", "tool", { kindA: "tool" }), isSecret)).toBe("only A has a tool call here");
    expect(entryChange(entry("added", "model", { kindB: "model" }), isSecret)).toBe("only B has a model step here");
  });
});

describe("run, recovery and session previews", () => {
  const run: RunSummary = {
    runId: "refund-900",
    agent: "support",
    parentRunId: null,
    status: "paused",
    pause: { reason: "approval", message: "waits", toolName: "issueRefund" } as RunSummary["pause"],
    error: null,
    inputText: null,
    origin: "agent",
    forkedFrom: null,
    recordCount: 5,
    lastSeq: 4,
    modelTurns: 1,
    costUsd: null,
    costPending: false,
    toolCalls: 1,
    inputTokens: 1200,
    outputTokens: 34,
    startedAt: "",
    updatedAt: "",
    completedAt: null,
  };

  it("gives a run's status with its pause reason, and its counts", () => {
    expect(runPreview(run)).toEqual({
      title: "refund-900 · paused (approval) · Backtrack",
      description: "Run refund-900 (agent support): paused (approval), 5 records, 1 model turn, 1 tool call, 1,234 tokens.",
    });
  });

  it("counts the recovery board's runs by what they wait for", () => {
    const board = [{ waiting: { kind: "approval" } }, { waiting: { kind: "sleep" } }, { waiting: { kind: "approval" } }];
    expect(recoveryPreview(board).description).toBe("3 unfinished runs: 2 waiting for approval, 1 asleep.");
    expect(recoveryPreview([]).description).toBe("Nothing to recover: every run is complete.");
  });

  it("lists a session's state keys by name, never their values", () => {
    const preview = sessionPreview({ id: "s-1", app: "tickets", user: "ann", events: [1, 2, 3], state: { cart: 3, "user:api_token": "tok-123" } });
    expect(preview.description).toBe("Session s-1 of app tickets, user ann: 3 events, state cart, user:api_token.");
    expect(preview.description).not.toContain("tok-123");
  });
});
