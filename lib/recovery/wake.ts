/**
 * wakeDue(store, waker, resume): drives the runs whose sleeps are due, found with the waker's
 * one query, instead of re-driving every unfinished run. Each root is driven under its lease;
 * a wake-up is forgotten once its sleep has passed (the sleep clears it too) or its run is done.
 */
import { passedName } from "../journal/names";
import type { Journal, Waker } from "../journal/ports";
import { defaultHolder, leaseTtl } from "./lease";
import { driveRun, isComplete, summarise, type Driven, type RecoverOptions, type RecoverResult, type Resume } from "./recover";

export interface WakeOptions extends RecoverOptions {
  /** Wake-ups taken in one call. Default 1,000. */
  limit?: number;
}

export async function wakeDue(store: Journal, waker: Waker, resume: Resume, options: WakeOptions = {}): Promise<RecoverResult> {
  const ttlMs = leaseTtl(options.ttlMs);
  const holder = options.holder ?? defaultHolder();
  const wakes = await waker.due(options.limit ?? 1_000);
  const roots = [...new Set(wakes.map((wake) => wake.rootRunId))];
  const driven: Driven[] = [];
  for (const rootRunId of roots) {
    const outcome = await driveRun(store, rootRunId, resume, { ...options, ttlMs, holder });
    options.onProgress?.(outcome.run);
    driven.push(outcome);
    for (const wake of wakes.filter((candidate) => candidate.rootRunId === rootRunId)) {
      const passed = (await store.record(wake.runId, passedName(wake.name))) !== undefined;
      if (passed || (await isComplete(store, wake.runId))) await waker.clear(wake.runId, wake.name);
    }
  }
  return summarise(driven);
}
