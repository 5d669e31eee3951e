/** diffRuns and regressionReport: load two runs and compare them (the comparison is lib/inspect/diff.ts). */
import { RunNotFoundError } from "../journal/errors";
import type { Journal } from "../journal/ports";
import { diffRecords, type DiffOptions, type RunDiff } from "../inspect/diff";

export async function diffRuns(journal: Journal, a: string, b: string, options: Omit<DiffOptions, "a" | "b"> = {}): Promise<RunDiff> {
  const [historyA, historyB] = await Promise.all([journal.history(a), journal.history(b)]);
  // A run with records exists; only an empty history needs the summary to tell "no run" from "no records yet".
  await Promise.all([mustExist(journal, a, historyA), mustExist(journal, b, historyB)]);
  return diffRecords(historyA, historyB, { ...options, a, b });
}

async function mustExist(journal: Journal, runId: string, history: readonly unknown[]): Promise<void> {
  if (history.length === 0 && !(await journal.run(runId))) throw new RunNotFoundError(runId);
}

/** A score of a diff. Ready-made scorers live outside this library: it depends on none of them. */
export type Scorer<Score = number> = (diff: RunDiff) => Score | Promise<Score>;

export interface RegressionReport<Score = number> {
  baseRunId: string;
  newRunId: string;
  diff: RunDiff;
  /** The scorer's result; null without a scorer. */
  score: Score | null;
}

/** Diffs the runs and, given a scorer, runs it on the diff. No scoring logic of its own. */
export async function regressionReport<Score = number>(
  journal: Journal,
  baseRunId: string,
  newRunId: string,
  options: { scorer?: Scorer<Score>; realign?: boolean } = {},
): Promise<RegressionReport<Score>> {
  const diff = await diffRuns(journal, baseRunId, newRunId, { realign: options.realign });
  return { baseRunId, newRunId, diff, score: options.scorer ? await options.scorer(diff) : null };
}
