/**
 * diffRecords: the decision-by-decision comparison of two runs (the pure projection behind
 * diffRuns, `backtrack diff`, GET /api/diff and the diff page).
 *
 * Alignment is positional: the i-th decision point of A is compared with the i-th of B (see
 * decision-points.ts for why positions, not tool-call ids). A model point is `same` when its text and
 * its tool-call list (name + arguments, in content order) match; a tool point when its tool name,
 * status, arguments and output match. Arguments and outputs match when their canonical JSON is the
 * same (key order never matters), which is decided structurally (equal.ts), without building text
 * or hashes; entries carry both sides' arguments hashes, computed when their detail is first read.
 * `divergentAt` is the first non-`same` index.
 *
 * Caveat, by design: what follows a divergence is positional too. When one run makes an extra
 * call, everything after it is compared one place off and reads as `changed`. The reliable signal
 * is `divergentAt` and everything before it. `{ realign: true }` re-synchronises the sequences
 * after the first divergence (longest common subsequence of the points, equal when `same`, see
 * realign.ts); its entries are marked `realigned: true` and the diff's `alignment` says so.
 */
import type { JournalRecord } from "../journal/types";
import { compareAt, onlyIn, summarise, type DiffEntry, type DiffSummary } from "./compare";
import { pointsOf, type Point } from "./decision-points";
import { realignTail, REALIGN_MAX_EDITS, type RealignInfo } from "./realign";

export type { DiffDetail, DiffEntry, DiffStatus, DiffSummary } from "./compare";

export interface RunDiff {
  a: string;
  b: string;
  /** "positional" (the default) or "realigned" (opt-in, after the first divergence). */
  alignment: "positional" | "realigned";
  steps: DiffEntry[];
  summary: DiffSummary;
  /** Index of the first entry that is not `same`; null when the runs decide identically. */
  divergentAt: number | null;
  /** Decision points in each run. */
  pointsA: number;
  pointsB: number;
  /** Present when realignment was asked for: whether it was applied, and why not. */
  realign?: RealignInfo;
}

export interface DiffOptions {
  /** Run ids to report (taken from the records when absent). */
  a?: string;
  b?: string;
  /** Re-synchronise after the first divergence (see realign.ts for its cost and cap). */
  realign?: boolean;
  /** Most insertions plus deletions realignment looks for; default REALIGN_MAX_EDITS. */
  realignMaxEdits?: number;
}

/** Positional comparison of two decision sequences. */
function diffPoints(pointsA: readonly Point[], pointsB: readonly Point[]): DiffEntry[] {
  const steps: DiffEntry[] = new Array(Math.max(pointsA.length, pointsB.length));
  for (let index = 0; index < steps.length; index += 1) {
    const a = pointsA[index];
    const b = pointsB[index];
    steps[index] = a && b ? compareAt(index, a, b) : a ? onlyIn(index, a, "A") : onlyIn(index, b as Point, "B");
  }
  return steps;
}

/** The RunDiff of two runs' records (each run's own history, in seq order). Pure. */
export function diffRecords(historyA: readonly JournalRecord[], historyB: readonly JournalRecord[], options: DiffOptions = {}): RunDiff {
  const a = options.a ?? historyA[0]?.runId ?? "";
  const b = options.b ?? historyB[0]?.runId ?? "";
  return diffPointLists(pointsOf(historyA), pointsOf(historyB), { ...options, a, b });
}

/** The RunDiff of two runs' decision points (pointsOf each run's own history). Pure. */
export function diffPointLists(pointsA: readonly Point[], pointsB: readonly Point[], options: DiffOptions & { a: string; b: string }): RunDiff {
  let realigned: DiffEntry[] | undefined;
  let realign: RealignInfo | undefined;
  if (options.realign) ({ steps: realigned, info: realign } = realignTail(pointsA, pointsB, options.realignMaxEdits ?? REALIGN_MAX_EDITS));
  return assemble(options, pointsA.length, pointsB.length, realigned ?? diffPoints(pointsA, pointsB), realign);
}

function assemble(options: DiffOptions & { a: string; b: string }, pointsA: number, pointsB: number, steps: DiffEntry[], realign: RealignInfo | undefined): RunDiff {
  const { summary, divergentAt } = summarise(steps);
  return {
    a: options.a,
    b: options.b,
    alignment: realign?.applied ? "realigned" : "positional",
    steps,
    summary,
    divergentAt,
    pointsA,
    pointsB,
    ...(realign ? { realign } : {}),
  };
}
