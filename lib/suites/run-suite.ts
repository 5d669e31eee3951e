/**
 * Running a suite: every pinned run is replayed (under a model, against its recorded outputs, or
 * with memory stripped), diffed against the pinned run and judged by a scorer; the batch is stored
 * first and the results as they finish, a small group a statement (result-writer.ts), so a page can
 * watch a batch live. The pinned runs are read in bulk just ahead of their replays (snapshot.ts).
 * Invariants:
 * - everything a caller can fix (suite name, no pins, unknown model or scorer, concurrency) is
 *   refused before the batch is stored;
 * - a pinned run's replay id is `<run>~<batchId>`: driving an interrupted batch again resumes the
 *   same replays (replayRun resumes an unfinished replay of the same source) instead of starting more;
 * - one run's failure is that run's result (`failed` or `error`), never the batch's: the batch
 *   fails only when the store itself does.
 */
import type { Registry } from "../agent/registry";
import { runScorer, SAME_DECISIONS, type ScorerEntry } from "../agent/scorers";
import { BadInputError, isBacktrackError } from "../journal/errors";
import type { Journal } from "../journal/ports";
import { diffRuns } from "../regression/diff-runs";
import { ReplayFailedError } from "../regression/errors";
import { RECORDED_MODEL } from "../regression/models";
import { replayRun } from "../regression/replay-run";
import { divergenceWords } from "./divergence";
import { ResultWriter } from "./result-writer";
import { PinnedRuns } from "./snapshot";
import { BatchNotFoundError, checkSuiteName, EmptySuiteError } from "./errors";
import { newBatchId, type SuiteStore } from "./store";
import { countResults, type Batch, type BatchResult, type ResultUpdate, type StatusCounts } from "./types";

export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 64;

export interface BatchRequest {
  suite: string;
  /** `recorded` (the default) or a registry model name. */
  model?: string;
  stripMemory?: boolean;
  /** A registered scorer's name; `same-decisions` by default. */
  scorer?: string;
  batchId?: string;
  /** Test these runs instead of the suite's pins (a bulk replay from the runs list): each must exist. */
  runIds?: readonly string[];
}

export interface DriveOptions {
  journal: Journal;
  suites: SuiteStore;
  registry?: Registry;
  /** Replays at once (default 4, at most 64). */
  concurrency?: number;
  /** Called as each pinned run's result is stored, with how many are done. */
  onResult?: (result: BatchResult, done: number, total: number) => void;
  signal?: AbortSignal;
}

export interface BatchReport {
  batch: Batch;
  results: BatchResult[];
  counts: StatusCounts;
  /** Every pinned run passed. */
  ok: boolean;
}

export function checkConcurrency(value: number | undefined): number {
  const concurrency = value ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new BadInputError(`concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, got ${String(value)}`);
  }
  return concurrency;
}

function scorerOf(registry: Registry | undefined, name: string | undefined): ScorerEntry {
  if (registry) return registry.scorer(name ?? SAME_DECISIONS.name);
  if (name === undefined || name === SAME_DECISIONS.name) return SAME_DECISIONS;
  throw new BadInputError(`scorer "${name}" needs a registry that registers it`);
}

/** Checks the request and stores the batch with one pending result per pinned run. */
export async function createBatch(options: Pick<DriveOptions, "suites" | "registry">, request: BatchRequest): Promise<Batch> {
  const suite = checkSuiteName(request.suite);
  const model = request.model ?? RECORDED_MODEL;
  if (model !== RECORDED_MODEL) {
    if (!options.registry) throw new BadInputError(`model "${model}" needs a registry that registers it`);
    options.registry.model(model);
  }
  const scorer = scorerOf(options.registry, request.scorer);
  const runIds = request.runIds ? [...new Set(request.runIds)] : (await options.suites.pins(suite)).map((pin) => pin.runId);
  if (runIds.length === 0) throw new EmptySuiteError(suite);
  return options.suites.createBatch({ batchId: request.batchId ?? newBatchId(), suite, model, stripMemory: request.stripMemory === true, scorer: scorer.name }, runIds);
}

/** Replays one pinned run and judges it; never throws for the run's own faults. */
async function testRun(options: DriveOptions, pinned: PinnedRuns, batch: Batch, scorer: ScorerEntry, runId: string): Promise<ResultUpdate> {
  const newRunId = `${runId}~${batch.batchId}`;
  let reason: string | null = null;
  let journal = options.journal;
  try {
    journal = await pinned.view(runId);
    await replayRun({ journal, registry: options.registry, runId, model: batch.model, stripMemoryContext: batch.stripMemory, newRunId, signal: options.signal });
  } catch (error) {
    if (!(error instanceof ReplayFailedError) && !isBacktrackError(error, "replay_failed")) {
      const message = error instanceof Error ? error.message : String(error);
      return { status: "error", replayRunId: null, divergentAt: null, divergence: null, reason: message, score: null };
    }
    const cause = (error as ReplayFailedError).cause;
    reason = `the replay failed: ${cause instanceof Error ? cause.message : String(cause)}`;
  }
  const diff = await diffRuns(journal, runId, newRunId);
  const words = divergenceWords(diff);
  if (reason !== null) return { status: "failed", replayRunId: newRunId, divergentAt: diff.divergentAt, divergence: words, reason, score: null };
  const verdict = await runScorer(scorer, diff);
  return {
    status: verdict.pass ? "pass" : "changed",
    replayRunId: newRunId,
    divergentAt: diff.divergentAt,
    divergence: words,
    reason: verdict.reason ?? null,
    score: verdict.score ?? null,
  };
}

/** Drives a stored batch's pending results, `concurrency` at a time, then marks the batch done. */
export async function driveBatch(options: DriveOptions, batchId: string): Promise<BatchReport> {
  const { suites } = options;
  const concurrency = checkConcurrency(options.concurrency);
  const batch = await suites.batch(batchId);
  if (!batch) throw new BatchNotFoundError(batchId);
  let done = 0;
  let total = 0;
  const writer = new ResultWriter(suites, batchId, (stored) => {
    done += 1;
    options.onResult?.(stored, done, total);
  });
  try {
    const scorer = scorerOf(options.registry, batch.scorer);
    const all = await suites.results(batchId);
    const pending = all.filter((result) => result.status === "pending");
    done = all.length - pending.length;
    total = all.length;
    const pinned = new PinnedRuns(
      options.journal,
      pending.map((result) => result.runId),
    );
    let next = 0;
    const worker = async () => {
      while (next < pending.length) {
        options.signal?.throwIfAborted();
        const result = pending[next] as BatchResult;
        next += 1;
        const update = await testRun(options, pinned, batch, scorer, result.runId).finally(() => pinned.release(result.runId));
        writer.add({ ...result, ...update });
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, pending.length) }, worker));
    await writer.flush();
    await suites.finishBatch(batchId, "done");
  } catch (error) {
    // The results that finished are kept: driving the batch again starts from the others.
    await writer.flush().catch(() => undefined);
    await suites.finishBatch(batchId, "failed", error instanceof Error ? error.message : String(error)).catch(() => undefined);
    throw error;
  }
  return batchReport(suites, batchId);
}

export async function batchReport(suites: SuiteStore, batchId: string): Promise<BatchReport> {
  const [batch, results] = await Promise.all([suites.batch(batchId), suites.results(batchId)]);
  if (!batch) throw new BatchNotFoundError(batchId);
  const counts = countResults(results);
  return { batch, results, counts, ok: counts.pass === results.length };
}

/** `backtrack test`: creates a batch of the suite and drives it. */
export async function runSuite(options: DriveOptions, request: BatchRequest): Promise<BatchReport> {
  checkConcurrency(options.concurrency);
  const batch = await createBatch(options, request);
  return driveBatch(options, batch.batchId);
}
