/**
 * recover(store, resume): after a crash, find every unfinished run and push it forward.
 * - Enumerate: one indexed query a page (Lister); a store that cannot enumerate is a ConfigError.
 * - Drive roots only: a sub-agent run is driven by its parent (`resume` of the root re-enters it).
 * - Skip what is finished (run:complete, checked again under the lease) and what another holder
 *   leases; drive the rest through lease() when the store is a Leaser, so two recoverers never
 *   drive one run at once.
 * - A pause (approval, interrupt, sleep, halt) is a successful recovery: the run waits again.
 *   Only genuine faults are joined into `error`.
 */
import { ConfigError } from "../journal/errors";
import { RUN_COMPLETE } from "../journal/names";
import { isLeaser, isLister, type Durable, type UnfinishedRun } from "../journal/ports";
import { DRIVEN_ORIGINS, type PauseState } from "../journal/types";
import { isPause } from "../agent/pauses";
import { LeaseHeldError, LeaseLostError, RecoveryError, type RunFailure } from "./errors";
import { defaultHolder, lease, leaseTtl } from "./lease";

/** Re-drives one run: `agent.run(runId)` with no input resumes it. Rejects with a pause or a fault. */
export type Resume = (runId: string, context: { signal: AbortSignal }) => Promise<unknown>;

export type RecoveryOutcome =
  /** driven to its final answer */
  | "complete"
  /** driven to a pause: it waits for a human, a timer, or (halt) a decision on an unknown outcome */
  | "paused"
  /** driven, and it failed with a genuine fault */
  | "failed"
  /** another holder leases it: not driven here */
  | "leased"
  /** the lease was lost mid-drive: another holder has it now */
  | "lost"
  /** found finished, or a sub-agent run whose parent is finished: nothing to drive */
  | "skipped"
  /** paused, and nothing can have changed since (waiting: "skip"): not driven */
  | "waiting";

export interface RecoveredRun {
  runId: string;
  outcome: RecoveryOutcome;
  pause?: PauseState;
  error?: string;
}

export interface RecoverResult {
  /** Runs `resume` was called for (pauses included). */
  n: number;
  /** The genuine faults, joined; undefined when there were none. */
  error: RecoveryError | undefined;
  runs: RecoveredRun[];
}

export interface RecoverOptions {
  /** Lease TTL (ms) when the store is a Leaser. Default 30 s. */
  ttlMs?: number;
  holder?: string;
  /** Runs driven at once. Default 1. */
  concurrency?: number;
  /** Drive at most this many runs in this call (the rest wait for the next): short passes for a polling loop. */
  limit?: number;
  /**
   * Which enumerated root runs this call may drive (default all). `(run) => run.abandoned` picks
   * only runs whose holder crashed: polled often, it takes them over soon after their lease expires.
   */
  select?: (run: UnfinishedRun) => boolean;
  /**
   * What to do with runs that are paused and cannot have moved on: nothing was written to them
   * since they paused (any record sets a run running again) and they wait for a human
   * (approval, interrupt, halt) or for a wake time still ahead. "redrive" (default, the seed's
   * behaviour) drives them anyway: each pauses again, and a sleep re-registers its wake-up with
   * the resume's waker. "skip" leaves them alone: for a loop that polls often with a durable waker.
   */
  waiting?: "redrive" | "skip";
  /** Drive imported runs too (origin "import"): by default recovery drives only runs an agent wrote. */
  includeImported?: boolean;
  /** Called as each run's outcome is known. */
  onProgress?: (run: RecoveredRun) => void;
  signal?: AbortSignal;
}

const PAGE = 1_000;

/** Whether the run has its terminal record, run:complete. */
export async function isComplete(store: Durable, runId: string): Promise<boolean> {
  const reader = store as Partial<{ record(runId: string, name: string): Promise<unknown> }>;
  if (typeof reader.record === "function") return (await reader.record(runId, RUN_COMPLETE)) !== undefined;
  return (await store.history(runId)).some((record) => record.name === RUN_COMPLETE);
}

/** Every unfinished run, page by page. */
export async function unfinished(store: Durable): Promise<UnfinishedRun[]> {
  if (!isLister(store)) throw new ConfigError("recover needs a store that can enumerate its runs (a Lister, such as MemStore or PostgresStore)");
  const all: UnfinishedRun[] = [];
  for (let after: string | undefined; ;) {
    const page = await store.unfinishedRuns({ after, limit: PAGE });
    all.push(...page);
    if (page.length < PAGE) return all;
    after = page.at(-1)?.runId;
  }
}

export async function recover(store: Durable, resume: Resume, options: RecoverOptions = {}): Promise<RecoverResult> {
  const ttlMs = leaseTtl(options.ttlMs);
  // An imported run has no process behind it: driving it would run its tools for real.
  const listed = (await unfinished(store)).filter((run) => options.includeImported || DRIVEN_ORIGINS.includes(run.origin));
  const byId = new Map(listed.map((run) => [run.runId, run]));
  const open = new Set(byId.keys());
  const done: Driven[] = [];
  const roots: UnfinishedRun[] = [];
  for (const run of listed) {
    if (options.select && !options.select(run)) continue;
    if (run.parentRunId === null && options.waiting === "skip" && stillWaiting(run, byId))
      done.push(report(options, { run: { runId: run.runId, outcome: "waiting", ...(run.pause ? { pause: run.pause } : {}) } }));
    else if (run.parentRunId === null) roots.push(run);
    else if (!open.has(run.parentRunId)) done.push(report(options, { run: { runId: run.runId, outcome: "skipped" } }));
    // A sub-agent run whose parent is unfinished is driven by the parent's drive.
  }
  const holder = options.holder ?? defaultHolder();
  // Runs whose holder crashed (lease expired, never released) first: they were in flight.
  const ordered = [...roots.filter((run) => run.abandoned), ...roots.filter((run) => !run.abandoned)];
  const free = ordered.filter((run) => run.leaseHolder === null || run.leaseHolder === holder);
  for (const run of ordered) if (!free.includes(run)) done.push(report(options, { run: { runId: run.runId, outcome: "leased" } }));
  const chosen = free.slice(0, options.limit ?? free.length);
  done.push(...(await inParallel(chosen, options.concurrency ?? 1, async (run) => report(options, await driveRun(store, run.runId, resume, { ...options, ttlMs, holder })))));
  return summarise(done);
}

/**
 * Paused, nothing written since, and its condition cannot have been met without a record. A
 * pause inside a sub-agent waits in that run: a decision written there sets it running again.
 */
function stillWaiting(run: UnfinishedRun, byId: Map<string, UnfinishedRun>, depth = 0): boolean {
  if (run.status !== "paused" || !run.pause) return false;
  if (run.pause.runId !== run.runId) {
    const waiter = byId.get(run.pause.runId);
    return waiter !== undefined && depth < 32 && stillWaiting(waiter, byId, depth + 1);
  }
  if (run.pause.reason === "sleep") return run.pause.wakeAt !== undefined && Date.parse(run.pause.wakeAt) > Date.now();
  return true;
}

/** One run's outcome, with the original error of a failure (for the joined RecoveryError). */
export interface Driven {
  run: RecoveredRun;
  fault?: unknown;
}

/** Drives one root run under a lease (when the store has them). */
export async function driveRun(store: Durable, runId: string, resume: Resume, options: RecoverOptions & { holder: string }): Promise<Driven> {
  const failed = (error: unknown): Driven => ({ run: { runId, outcome: "failed", error: error instanceof Error ? error.message : String(error) }, fault: error });
  const attempt = async (signal: AbortSignal): Promise<Driven> => {
    if (await isComplete(store, runId)) return { run: { runId, outcome: "skipped" } };
    try {
      await resume(runId, { signal });
      return { run: { runId, outcome: "complete" } };
    } catch (error) {
      if (isPause(error)) return { run: { runId, outcome: "paused", pause: error.state() } };
      if (error instanceof LeaseLostError || signal.aborted) throw error;
      return failed(error);
    }
  };
  if (!isLeaser(store)) return attempt(options.signal ?? new AbortController().signal);
  try {
    return await lease(store, runId, attempt, { ttlMs: options.ttlMs, holder: options.holder, signal: options.signal });
  } catch (error) {
    if (error instanceof LeaseHeldError) return { run: { runId, outcome: "leased" } };
    if (error instanceof LeaseLostError) return { run: { runId, outcome: "lost", error: error.message } };
    return failed(error);
  }
}

function report(options: RecoverOptions, driven: Driven): Driven {
  options.onProgress?.(driven.run);
  return driven;
}

export function summarise(driven: Driven[]): RecoverResult {
  const failures: RunFailure[] = driven.filter(({ run }) => run.outcome === "failed").map(({ run, fault }) => ({ runId: run.runId, error: fault ?? new Error(run.error) }));
  const runs = driven.map(({ run }) => run);
  const n = runs.filter((run) => run.outcome === "complete" || run.outcome === "paused" || run.outcome === "failed").length;
  return { n, error: failures.length > 0 ? new RecoveryError(failures) : undefined, runs };
}

/** Runs `work` over `items`, at most `limit` at a time, keeping the order of results. */
async function inParallel<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  });
  await Promise.all(lanes);
  return results;
}
