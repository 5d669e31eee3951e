/**
 * The server process's recent diffs. The diff page and its entries route ask for the same diff
 * again and again (every page of entries around the cursor), and a diff of two 200,000-record runs
 * reads both histories: the last few are kept, keyed by both runs' last seq, so a run that grew is
 * read again. Records never change once written, so nothing else can make a kept diff stale.
 * Built in the projection pool (lib/pool/diffs.ts) and held packed: routes window it without
 * decoding the rest.
 */
import "server-only";
import type { PackedDiff } from "@/lib/inspect/packed-diff";
import { RunNotFoundError } from "@/lib/journal/errors";
import type { RunSummary } from "@/lib/journal/types";
import { pooledDiff } from "@/lib/pool/diffs";
import { pagedRead, projectionPool } from "./pool";
import { processWide } from "./process-wide";
import { getStore } from "./store";

const KEPT = 4;

interface Kept {
  version: string;
  diff: Promise<PackedDiff>;
}

export interface LoadedDiff {
  diff: PackedDiff;
  runA: RunSummary;
  runB: RunSummary;
}

/** The diff of runs a and b (RunNotFoundError when either is unknown). */
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
    const diff = pooledDiff(store, projectionPool(), runA, runB, { realign, gate: pagedRead });
    entry = { version, diff };
    // A failed build is not kept: the next request tries again.
    const made = entry;
    diff.catch(() => kept.get(key) === made && kept.delete(key));
  }
  // Most recently used last: the first key is the one to drop.
  kept.delete(key);
  kept.set(key, entry);
  while (kept.size > KEPT) kept.delete(kept.keys().next().value as string);
  return { diff: await entry.diff, runA, runB };
}
