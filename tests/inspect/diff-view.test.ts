/**
 * The diff page's projections: rows, the opening row, seq → row, the word diff, the structural
 * JSON diff and the Markdown summary, on the demo's regression pair written by the real loop.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { diffRecords, type RunDiff } from "@/lib/inspect/diff";
import { diffHead, diffMarkdown, diffRows, initialRow, jsonChanges, markdownCode, packRows, rowOfSeq, unpackRows, wordDiff } from "@/lib/inspect/diff-view";
import { MemStore } from "@/lib/journal/memory-store";
import { writeDemoRuns } from "../regression/helpers";

let diff: RunDiff;

beforeAll(async () => {
  const store = new MemStore();
  await writeDemoRuns(store, "order-123", "order-123~v2");
  diff = diffRecords(await store.history("order-123"), await store.history("order-123~v2"), { a: "order-123", b: "order-123~v2" });
});

describe("diff rows", () => {
  it("gives one labelled row per entry with both sides' seqs", () => {
    const rows = diffRows(diff);
    expect(rows.map((row) => [row.status, row.kind, row.label])).toEqual([
      ["changed", "model", "LLM → chargeCard"],
      ["changed", "tool", "tool: chargeCard"],
      ["changed", "model", expect.stringMatching(/^LLM: /)],
    ]);
    expect(rows[1]?.seqA).toBeGreaterThan(rows[0]!.seqA!);
    expect(rows[0]).not.toHaveProperty("realigned");
  });

  it("packs rows column by column, labels once, and unpacks them unchanged", () => {
    const rows = diffRows(diff);
    expect(unpackRows(packRows(rows))).toEqual(rows);
    expect(unpackRows(packRows([]))).toEqual([]);
    const mixed = [
      { index: 0, status: "same" as const, kind: "model" as const, step: 0, label: "LLM → x", seqA: 1, seqB: 1 },
      { index: 1, status: "missing" as const, kind: "tool" as const, step: 0, label: "tool: x", seqA: -1, realigned: true as const },
      { index: 2, status: "added" as const, kind: "tool" as const, step: 0, label: "tool: x", seqB: 4, realigned: true as const },
    ];
    const packed = packRows(mixed);
    expect(packed).toMatchObject({ statuses: "sma", kinds: "mtt", labels: ["LLM → x", "tool: x"], labelOf: [0, 1, 1], realigned: [1, 2] });
    expect(unpackRows(packed)).toEqual(mixed);
  });

  it("opens at `at` when given, else at the first divergence, clamped to the rows", () => {
    expect(initialRow(null, { divergentAt: 1 }, 3)).toBe(1);
    expect(initialRow(null, { divergentAt: null }, 3)).toBe(0);
    expect(initialRow(2, { divergentAt: 0 }, 3)).toBe(2);
    expect(initialRow(99, { divergentAt: 0 }, 3)).toBe(2);
    expect(initialRow(-4, { divergentAt: 0 }, 3)).toBe(0);
    expect(initialRow(null, { divergentAt: 0 }, 0)).toBe(0);
  });

  it("finds the row holding a seq on either side", () => {
    const rows = diffRows(diff);
    expect(rowOfSeq(rows, "A", rows[1]!.seqA!)).toBe(1);
    expect(rowOfSeq(rows, "B", rows[2]!.seqB! + 5)).toBe(2);
    expect(rowOfSeq(rows, "A", 0)).toBeUndefined();
  });
});

describe("word and JSON diffs", () => {
  it("marks the words only one side has", () => {
    expect(wordDiff("Charged $500 to order 123.", "Charged $5000 to order 123.")).toEqual([
      { text: "Charged $", change: "same" },
      { text: "500", change: "removed" },
      { text: "5000", change: "added" },
      { text: " to order 123.", change: "same" },
    ]);
    expect(wordDiff("x".repeat(30_000), "y")).toBeUndefined();
  });

  it("lists structural changes by path: changed, added, removed and nested", () => {
    expect(jsonChanges({ orderId: "123", amount: 500 }, { orderId: "123", amount: 5000 })).toEqual([{ path: "amount", change: "changed", before: 500, after: 5000 }]);
    expect(jsonChanges({ a: { "odd key": 1 }, list: [1, 2] }, { a: {}, list: [1, 2, 3], extra: true })).toEqual([
      { path: 'a["odd key"]', change: "removed", before: 1 },
      { path: "list[2]", change: "added", after: 3 },
      { path: "extra", change: "added", after: true },
    ]);
    expect(jsonChanges({ same: [1] }, { same: [1] })).toEqual([]);
    expect(jsonChanges(null, "<script>")).toEqual([{ path: "", change: "changed", before: null, after: "<script>" }]);
  });
});

describe("the Markdown summary", () => {
  it("holds both run ids, the counts, the first divergence's two sides and the link", () => {
    const text = diffMarkdown(diffHead(diff), diff.steps[0], "http://127.0.0.1:3000/diff?a=order-123&b=order-123%7Ev2&at=0");
    expect(text).toContain("`order-123` → `order-123~v2`");
    expect(text).toContain("0 same · 3 changed · 0 missing · 0 added (aligned by position)");
    expect(text).toContain("First divergence: row 0 (step 0, model decision): **changed**");
    expect(text).toContain('calls `chargeCard {"orderId":"123","amount":500}`');
    expect(text).toContain('calls `chargeCard {"orderId":"123","amount":5000}`');
    expect(text).toContain("(<http://127.0.0.1:3000/diff?a=order-123&b=order-123%7Ev2&at=0>)");
    expect(text).not.toContain("steps");
  });

  it("says so when the runs decide identically, and fences backticks in ids", () => {
    const same = diffRecords([], [], { a: "x`y", b: "z" });
    expect(diffMarkdown(diffHead(same), undefined, "L")).toContain("The runs decide identically.");
    expect(markdownCode("x`y")).toBe("``x`y``");
    expect(markdownCode("`x")).toBe("`` `x ``");
  });
});
