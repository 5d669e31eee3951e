/**
 * The data of regression suites: a pin (a run kept as a test in a named suite), a batch (one run of
 * a suite under a model) and a batch's result per pinned run. Plain JSON shapes: the CLI's --json,
 * the HTTP API and the pages print them as they are.
 */

/** A run pinned into a suite. (suite, runId) is unique: pinning again keeps the first pin. */
export interface Pin {
  suite: string;
  runId: string;
  /** Who pinned it: the OS user for the CLI, "inspector" for the page, or what the caller says. */
  pinnedBy: string;
  /** ISO 8601 */
  pinnedAt: string;
  note: string | null;
}

/**
 * A pinned run's outcome in a batch:
 * - `pass`: the scorer passed the replay's diff against the pinned run;
 * - `changed`: the replay completed (or paused) and the scorer failed it: a regression to look at;
 * - `failed`: the replay itself failed (for example a recorded replay asked for a turn never recorded);
 * - `error`: the replay could not start (the run is gone, its tools are not registered);
 * - `pending`: not done yet.
 */
export type ResultStatus = "pending" | "pass" | "changed" | "failed" | "error";

export const RESULT_STATUSES: readonly ResultStatus[] = ["pending", "pass", "changed", "failed", "error"];

export type BatchStatus = "running" | "done" | "failed";

export interface Batch {
  batchId: string;
  suite: string;
  /** `recorded` or a registry model name. */
  model: string;
  stripMemory: boolean;
  scorer: string;
  status: BatchStatus;
  total: number;
  /** Why the batch itself failed (not one of its runs). */
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
}

export interface BatchResult {
  batchId: string;
  runId: string;
  position: number;
  status: ResultStatus;
  replayRunId: string | null;
  /** The first diff row that differs (the /diff page's `at`); null when none does or there is no replay. */
  divergentAt: number | null;
  /** That divergence in words ("chargeCard: amount 500 → 5000"). */
  divergence: string | null;
  /** The scorer's reason, or why the replay failed. */
  reason: string | null;
  score: number | null;
  finishedAt: string | null;
}

/** A finished result, as runSuite reports it. */
export type ResultUpdate = Pick<BatchResult, "status" | "replayRunId" | "divergentAt" | "divergence" | "reason" | "score">;

export type StatusCounts = Record<ResultStatus, number>;

export interface SuiteSummary {
  suite: string;
  pins: number;
  lastBatch: (Batch & { counts: StatusCounts }) | null;
}

export function emptyCounts(): StatusCounts {
  return { pending: 0, pass: 0, changed: 0, failed: 0, error: 0 };
}

export function countResults(results: readonly Pick<BatchResult, "status">[]): StatusCounts {
  const counts = emptyCounts();
  for (const result of results) counts[result.status] += 1;
  return counts;
}
