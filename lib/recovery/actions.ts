/**
 * What a person does to unfinished runs, shared by the command line (approve, answer, recover)
 * and the inspector's recovery board, so both behave alike: resume a run's root after a decision,
 * recover every unfinished run through the registry, and count what recovery did.
 */
import type { Registry } from "../agent/registry";
import type { Journal, Waker } from "../journal/ports";
import type { RunSummary } from "../journal/types";
import { rootRunOf } from "./pause-decisions";
import { defaultHolder, DEFAULT_LEASE_TTL_MS } from "./lease";
import { driveRun, recover, type RecoveredRun, type RecoverResult, type RecoveryOutcome } from "./recover";
import { registryResume } from "./resume";

interface DriveOptions {
  ttlMs?: number;
  holder?: string;
  /** Where sleeps register their wake-up (PostgresWaker on a database). */
  waker?: Waker;
  signal?: AbortSignal;
}

export interface Resumed {
  /** The root of the decided run's tree: what was driven. */
  root: string;
  resumed: RecoveredRun;
  /** The root's summary after the drive. */
  run: RunSummary | undefined;
}

/** Drives the root of `runId`'s tree under a lease (after a decision was recorded in it). */
export async function resumeRoot(store: Journal, registry: Registry, runId: string, options: DriveOptions = {}): Promise<Resumed> {
  const root = await rootRunOf(store, runId);
  const resume = registryResume(registry, store, { waker: options.waker });
  const outcome = await driveRun(store, root, resume, { holder: options.holder ?? defaultHolder(), ttlMs: options.ttlMs ?? DEFAULT_LEASE_TTL_MS, signal: options.signal });
  return { root, resumed: outcome.run, run: await store.run(root) };
}

/** One line for people on how a resumed root ended: "refund-900 resumed and completed". */
export function resumeSentence({ root, resumed }: Pick<Resumed, "root" | "resumed">): string {
  switch (resumed.outcome) {
    case "complete":
      return `${root} resumed and completed`;
    case "paused":
      return `${root} resumed and paused again: ${resumed.pause?.message ?? ""}`;
    case "failed":
      return `${root} resumed and failed: ${resumed.error ?? ""}`;
    case "skipped":
      return `${root} was already complete`;
    case "leased":
      return `${root} is being driven by another process (it holds the lease); that drive reads the decision, or Recover now does later`;
    case "lost":
      return `${root} lost its lease to another process mid-drive: ${resumed.error ?? ""}`;
    case "waiting":
    default:
      return `${root}: ${resumed.outcome}`;
  }
}

const RECOVERY_OUTCOMES: RecoveryOutcome[] = ["complete", "paused", "failed", "leased", "lost", "skipped", "waiting"];

export type RecoveryCounts = Record<RecoveryOutcome, number>;

/** How many runs ended each way. */
export function recoveryCounts(runs: readonly RecoveredRun[]): RecoveryCounts {
  const counts = Object.fromEntries(RECOVERY_OUTCOMES.map((outcome) => [outcome, 0])) as RecoveryCounts;
  for (const run of runs) counts[run.outcome] += 1;
  return counts;
}

/** One line for people: "recovered 3 runs: 1 driven to completion, 2 paused, 0 failed". */
export function recoverySentence(result: Pick<RecoverResult, "n" | "runs">): string {
  if (result.runs.length === 0) return "nothing to recover: every run is complete";
  const counts = recoveryCounts(result.runs);
  const elsewhere = counts.leased + counts.lost;
  return (
    `recovered ${result.n} run${result.n === 1 ? "" : "s"}: ${counts.complete} driven to completion, ${counts.paused} paused, ${counts.failed} failed` +
    `${elsewhere ? `; ${elsewhere} held by another process` : ""}${counts.skipped ? `; ${counts.skipped} skipped` : ""}`
  );
}

/** recover() with the registry's resume policy: every unfinished run is pushed forward. */
export function recoverWithRegistry(
  store: Journal,
  registry: Registry,
  options: DriveOptions & { onProgress?: (run: RecoveredRun) => void; includeImported?: boolean } = {},
): Promise<RecoverResult> {
  return recover(store, registryResume(registry, store, { waker: options.waker }), {
    ttlMs: options.ttlMs,
    holder: options.holder,
    signal: options.signal,
    onProgress: options.onProgress,
    includeImported: options.includeImported,
  });
}
