/**
 * The inspector's background job kinds, framework-free so that any server (or a test) can run
 * them on a JobRunner: `replay` drives a replay whose id was reserved when it was asked for,
 * `recover` pushes every unfinished run forward, and `resume` drives a run's root after a
 * person's decision was recorded in it, and `suite-batch` drives a stored suite batch (lib/suites).
 * Inputs are plain JSON (they are stored in `jobs`).
 * A job may run again after its runner died (lib/jobs/runner.ts): a replay then continues its
 * reserved run from the journal (never a second run), and a resume drives the root again; both
 * drive under the run's lease, waiting while another holder (the dead runner, until its lease
 * expires) has it, so two drives of one run never overlap and tool effects stay at most once.
 */
import type { Registry } from "../agent/registry";
import { isLeaser, type Journal, type Waker } from "../journal/ports";
import { recoveryCounts, recoverWithRegistry, resumeRoot, type RecoveryCounts, type Resumed } from "../recovery/actions";
import { LeaseHeldError, ResumeFailedError } from "../recovery/errors";
import { lease } from "../recovery/lease";
import type { RecoveredRun } from "../recovery/recover";
import { diffRuns } from "../regression/diff-runs";
import { replayRun } from "../regression/replay-run";
import { suiteStore } from "../suites/pins";
import { driveBatch } from "../suites/run-suite";
import type { StatusCounts } from "../suites/types";
import type { JobHandler } from "./runner";
import { FORK_JOB, forkJobHandler } from "./fork-job";
import { BISECT_JOB, bisectJobHandler } from "./bisect-job";

interface KindOptions {
  waker?: Waker;
  /** The lease TTL of the runs jobs drive (BACKTRACK_LEASE_TTL_MS; default 30 s). */
  leaseTtlMs?: number;
}

/** How often a job retries a lease another holder has. */
const LEASE_RETRY_MS = 250;

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    signal.addEventListener("abort", stop, { once: true });
  });
}

/** Runs `drive` under `runId`'s lease, waiting while another holder has it. */
async function whenLeased<T>(
  store: Journal,
  runId: string,
  holder: string,
  ttlMs: number | undefined,
  signal: AbortSignal,
  drive: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  for (;;) {
    try {
      return await lease(store, runId, drive, { holder, ttlMs, signal });
    } catch (error) {
      if (!(error instanceof LeaseHeldError)) throw error;
      await pause(LEASE_RETRY_MS, signal);
    }
  }
}

export const REPLAY_JOB = "replay";
export const RECOVER_JOB = "recover";
export const RESUME_JOB = "resume";
export const SUITE_BATCH_JOB = "suite-batch";

export interface ReplayJobInput {
  runId: string;
  /** `recorded` or a registry model name. */
  model: string;
  stripMemoryContext: boolean;
  /** Claimed by reserveReplay when the job was asked for. */
  newRunId: string;
}

export interface ReplayJobOutput {
  newRunId: string;
  model: string;
  paused: string | null;
  diff: { divergentAt: number | null; summary: Record<string, number> };
}

export interface RecoverJobOutput {
  n: number;
  summary: RecoveryCounts;
  runs: RecoveredRun[];
  error: string | null;
}

export interface RecoverJobInput {
  /** Drive imported runs too (recovery skips them by default). */
  includeImported?: boolean;
}

export interface ResumeJobInput {
  /** The run the person decided on; the job drives the root of its tree. */
  runId: string;
  /** The decision's record, already journaled when the job was submitted. */
  decision: { runId: string; name: string; by: string };
}

/** A suite batch already stored (lib/suites createBatch): the job drives its pending results. */
export interface SuiteBatchJobInput {
  batchId: string;
  /** Replays at once; BACKTRACK_SUITE_CONCURRENCY, else 4. */
  concurrency?: number;
}

export interface SuiteBatchJobOutput {
  batchId: string;
  ok: boolean;
  counts: StatusCounts;
}

/** How the root ended: complete, paused again, or not driven here (leased, lost, skipped). A fault fails the job instead. */
export type ResumeJobOutput = Resumed;

export function jobHandlers(store: Journal, registry: Registry, options: KindOptions = {}): Record<string, JobHandler> {
  return {
    [REPLAY_JOB]: async (input, { signal, holder }): Promise<ReplayJobOutput> => {
      const request = input as ReplayJobInput;
      const drive = (leased: AbortSignal) =>
        replayRun({
          journal: store,
          registry,
          runId: request.runId,
          model: request.model,
          stripMemoryContext: request.stripMemoryContext,
          newRunId: request.newRunId,
          signal: leased,
        });
      // A store without leases (MemStore) drives at once.
      const replayed = isLeaser(store) ? await whenLeased(store, request.newRunId, holder, options.leaseTtlMs, signal, drive) : await drive(signal);
      const diff = await diffRuns(store, request.runId, replayed.newRunId);
      return { newRunId: replayed.newRunId, model: replayed.model, paused: replayed.pause?.message ?? null, diff: { divergentAt: diff.divergentAt, summary: { ...diff.summary } } };
    },
    [RECOVER_JOB]: async (input, { signal, holder }): Promise<RecoverJobOutput> => {
      const includeImported = (input as RecoverJobInput | null)?.includeImported === true;
      const result = await recoverWithRegistry(store, registry, { waker: options.waker, signal, includeImported, holder, ttlMs: options.leaseTtlMs });
      return { n: result.n, summary: recoveryCounts(result.runs), runs: result.runs, error: result.error?.message ?? null };
    },
    [RESUME_JOB]: async (input, { signal, holder }): Promise<ResumeJobOutput> => {
      const request = input as ResumeJobInput;
      let resumed = await resumeRoot(store, registry, request.runId, { waker: options.waker, signal, holder, ttlMs: options.leaseTtlMs });
      // Another holder drives the root (a dead runner's lease, until it expires): wait for it, then drive.
      while (resumed.resumed.outcome === "leased") {
        await pause(LEASE_RETRY_MS, signal);
        resumed = await resumeRoot(store, registry, request.runId, { waker: options.waker, signal, holder, ttlMs: options.leaseTtlMs });
      }
      // A genuine fault is the job's failure (its error is the fault); a pause is a success.
      if (resumed.resumed.outcome === "failed") throw new ResumeFailedError(resumed.root, resumed.resumed.error ?? "no error message");
      return resumed;
    },
    [FORK_JOB]: forkJobHandler(store, registry),
    [SUITE_BATCH_JOB]: async (input, { signal }): Promise<SuiteBatchJobOutput> => {
      const request = input as SuiteBatchJobInput;
      const concurrency = request.concurrency ?? (Number(process.env.BACKTRACK_SUITE_CONCURRENCY) || undefined);
      const report = await driveBatch({ journal: store, suites: suiteStore(store), registry, concurrency, signal }, request.batchId);
      return { batchId: request.batchId, ok: report.ok, counts: report.counts };
    },
    [BISECT_JOB]: bisectJobHandler(store, registry),
  };
}
