/**
 * The server process's recent diffs. The diff page and its entries route ask for the same diff
 * again and again (every page of entries around the cursor), and a diff of two 20,000-record runs
 * reads both histories: the last few are kept, keyed by both runs' last seq, so a run that grew is
 * read again. Records never change once written, so nothing else can make a kept diff stale.
 */
import "server-only";
import type { RunDiff } from "@/lib/inspect/diff";
import { RunNotFoundError } from "@/lib/journal/errors";
import type { RunSummary } from "@/lib/journal/types";
import { DECISION_KINDS } from "@/lib/inspect/decision-points";
import { diffRecordsInSlices } from "@/lib/inspect/diff";
import { processWide } from "./process-wide";
import { getStore } from "./store";
import { nextTurn } from "./turns";
import { runHistory } from "./windows";

const KEPT = 4;

/** Decision points read, and positions compared, per turn (turns.ts): a slice of 1,000 is a few milliseconds. */
const DIFF_SLICE_ON_SERVER = 1_000;

interface Kept {
  version: string;
  diff: Promise<RunDiff>;
}

export interface LoadedDiff {
  diff: RunDiff;
  runA: RunSummary;
  runB: RunSummary;
}

/** The RunDiff of runs a and b (RunNotFoundError when either is unknown). */
export async function cachedDiff(a: string, b: string, realign: boolean): Promise<LoadedDiff> {
  const store = await getStore();
  const [runA, runB] = await Promise.all([store.run(a), store.run(b)]);
  if (!runA) throw new RunNotFoundError(a);
  if (!runB) throw new RunNotFoundError(b);
  const kept = processWide("diffs", () => new Map<string, Kept>());
  const key = JSON.stringify([a, b, realign]);
  const version = `${runA.lastSeq}:${runB.lastSeq}`;
  let entry = kept.get(key);
  if (!entry || entry.version !== version) {
    // Read in pages and compared in slices, giving way between them: the server keeps answering meanwhile.
    const diff = Promise.all([runHistory(store, a, runA.lastSeq, DECISION_KINDS), runHistory(store, b, runB.lastSeq, DECISION_KINDS)]).then(([historyA, historyB]) =>
      diffRecordsInSlices(historyA, historyB, { a, b, realign }, nextTurn, DIFF_SLICE_ON_SERVER),
    );
    entry = { version, diff };
    // A failed read is not kept: the next request tries again.
    diff.catch(() => {
      if (kept.get(key) === entry) kept.delete(key);
    });
  }
  // Most recently used last: the first key is the one to drop.
  kept.delete(key);
  kept.set(key, entry);
  while (kept.size > KEPT) kept.delete(kept.keys().next().value as string);
  return { diff: await entry.diff, runA, runB };
}
