/** The server process's outline cache (lib/inspect/outline-cache.ts) over its one store, and the timelines built from it. */
import "server-only";
import { OutlineCache } from "@/lib/inspect/outline-cache";
import type { OutlineEntry } from "@/lib/inspect/outline";
import { extendTimelineInSlices, timelineOf, type Timeline } from "@/lib/inspect/timeline";
import type { RunSummary } from "@/lib/journal/types";
import { processWide, processWideStart } from "./process-wide";
import { getStore } from "./store";
import { nextTurn, pacedHistory } from "./turns";

/** Timelines kept: building one for a 200,000-record run costs tens of milliseconds, extending it little. */
const KEPT_TIMELINES = 8;

interface KeptTimeline {
  /** How many outline entries the build was asked for (it may hold more). */
  through: number;
  timeline: Promise<Timeline>;
}

export async function runOutline(runId: string, run?: RunSummary): Promise<OutlineEntry[] | undefined> {
  // Small pages: each page read is turned into outline entries in one stretch of the server's thread.
  const cache = await processWideStart("outlines", async () => {
    const store = await getStore();
    return new OutlineCache({ run: (id) => store.run(id), history: pacedHistory(store) }, { pageSize: 1_000 });
  });
  return cache.outline(runId, run);
}

/**
 * The run's timeline through at least `run.lastSeq`, or undefined for an unknown run. Shared:
 * callers must not change it. Concurrent requests share one build, kept before anything is awaited
 * (ten requests for a cold run must not build it ten times over); a failed build is not kept.
 */
export async function runTimeline(runId: string, run?: RunSummary): Promise<Timeline | undefined> {
  const entries = await runOutline(runId, run);
  if (!entries) return undefined;
  const kept = processWide("timelines", () => new Map<string, KeptTimeline>());
  let entry = kept.get(runId);
  if (!entry || entry.through < entries.length) {
    const through = entries.length;
    const previous = entry?.timeline.catch(() => undefined) ?? Promise.resolve(undefined);
    // Built on the last timeline (or its build), a slice at a time, giving way between slices.
    const timeline = previous.then((last) => extendTimelineInSlices(last && last.entries.length <= through ? last : timelineOf([]), entries, nextTurn));
    const building: KeptTimeline = { through, timeline };
    timeline.catch(() => kept.get(runId) === building && kept.delete(runId));
    entry = building;
  }
  // Most recently used last: the first key is the one to drop.
  kept.delete(runId);
  kept.set(runId, entry);
  while (kept.size > KEPT_TIMELINES) kept.delete(kept.keys().next().value as string);
  return entry.timeline;
}
