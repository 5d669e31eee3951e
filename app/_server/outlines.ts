/** The server process's outline cache (lib/inspect/outline-cache.ts) over its one store, and the timelines built from it. */
import "server-only";
import { OutlineCache } from "@/lib/inspect/outline-cache";
import type { OutlineEntry } from "@/lib/inspect/outline";
import { extendTimeline, timelineOf, type Timeline } from "@/lib/inspect/timeline";
import type { RunSummary } from "@/lib/journal/types";
import { processWide, processWideStart } from "./process-wide";
import { getStore } from "./store";
import { giveWay } from "./windows";

/** Timelines kept: building one for a 200,000-record run costs tens of milliseconds, extending it little. */
const KEPT_TIMELINES = 8;
const TIMELINE_SLICE = 20_000;

export async function runOutline(runId: string, run?: RunSummary): Promise<OutlineEntry[] | undefined> {
  // Small pages: each page read is turned into outline entries in one stretch of the server's thread.
  const cache = await processWideStart("outlines", async () => new OutlineCache(await getStore(), { pageSize: 1_000 }));
  return cache.outline(runId, run);
}

/** The run's timeline through at least `run.lastSeq`, or undefined for an unknown run. Shared: callers must not change it. */
export async function runTimeline(runId: string, run?: RunSummary): Promise<Timeline | undefined> {
  const entries = await runOutline(runId, run);
  if (!entries) return undefined;
  const kept = processWide("timelines", () => new Map<string, Promise<Timeline>>());
  const previous = await kept.get(runId)?.catch(() => undefined);
  if (previous && previous.entries.length >= entries.length) return previous;
  // Concurrent requests share one build; a failed one is not kept.
  const building = extendInSlices(previous && previous.entries.length <= entries.length ? previous : timelineOf([]), entries);
  kept.delete(runId);
  kept.set(runId, building);
  building.catch(() => kept.get(runId) === building && kept.delete(runId));
  while (kept.size > KEPT_TIMELINES) kept.delete(kept.keys().next().value as string);
  return building;
}

/** `timeline` extended through `entries`, a slice at a time, giving way between slices (200,000 entries are a long stretch of work). */
async function extendInSlices(start: Timeline, entries: readonly OutlineEntry[]): Promise<Timeline> {
  let timeline = start;
  while (timeline.entries.length < entries.length) {
    const from = timeline.entries.length;
    const next = extendTimeline(timeline, entries.slice(from, from + TIMELINE_SLICE));
    // extendTimeline stops at a gap in the seqs: what it has is all there is.
    if (next.entries.length === from) break;
    timeline = next;
    if (timeline.entries.length < entries.length) await giveWay();
  }
  return timeline;
}
