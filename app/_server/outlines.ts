/** The server process's outline cache (lib/inspect/outline-cache.ts) over its one store, and the timelines built from it. */
import "server-only";
import { OutlineCache } from "@/lib/inspect/outline-cache";
import type { OutlineEntry } from "@/lib/inspect/outline";
import { extendTimeline, timelineOf, type Timeline } from "@/lib/inspect/timeline";
import type { RunSummary } from "@/lib/journal/types";
import { processWide, processWideStart } from "./process-wide";
import { getStore } from "./store";

/** Timelines kept: building one for a 200,000-record run costs tens of milliseconds, extending it little. */
const KEPT_TIMELINES = 8;

export async function runOutline(runId: string, run?: RunSummary): Promise<OutlineEntry[] | undefined> {
  const cache = await processWideStart("outlines", async () => new OutlineCache(await getStore()));
  return cache.outline(runId, run);
}

/** The run's timeline through at least `run.lastSeq`, or undefined for an unknown run. Shared: callers must not change it. */
export async function runTimeline(runId: string, run?: RunSummary): Promise<Timeline | undefined> {
  const entries = await runOutline(runId, run);
  if (!entries) return undefined;
  const kept = processWide("timelines", () => new Map<string, Timeline>());
  const previous = kept.get(runId);
  const timeline = previous && previous.entries.length <= entries.length ? extendTimeline(previous, entries.slice(previous.entries.length)) : timelineOf(entries);
  kept.delete(runId);
  kept.set(runId, timeline);
  while (kept.size > KEPT_TIMELINES) kept.delete(kept.keys().next().value as string);
  return timeline;
}
