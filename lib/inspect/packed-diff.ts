/**
 * A RunDiff packed for a server to hold (packed.ts): its head, the diff page's rows, and every
 * entry whole (plainEntry) as JSON, built where the diff is computed (a worker thread). The server
 * answers a window of entries by decoding only that window. Page-only, like diff-view.ts.
 */
import { plainEntry, type DiffEntry } from "./compare";
import type { RunDiff } from "./diff";
import { diffHead, diffRows, packRows, type DiffHead, type PackedRows } from "./diff-view";
import { packedItem, packedItems, packList, type PackedList } from "./packed";

export interface PackedDiff {
  head: DiffHead;
  rows: PackedRows;
  /** plainEntry of each step, in order. */
  entries: PackedList;
}

export function packDiff(diff: RunDiff): PackedDiff {
  return { head: diffHead(diff), rows: packRows(diffRows(diff)), entries: packList(diff.steps.map(plainEntry)) };
}

/** Entries [from, to) of the diff (clamped), whole. */
export function diffEntries(diff: PackedDiff, from: number, to: number): DiffEntry[] {
  return packedItems<DiffEntry>(diff.entries, from, to);
}

/** Entry `index`, or undefined past the end. */
export function diffEntryAt(diff: PackedDiff, index: number): DiffEntry | undefined {
  return index >= 0 && index < diff.entries.count ? packedItem<DiffEntry>(diff.entries, index) : undefined;
}
