/**
 * The server process's outlines and timelines of runs, built in the projection pool a page at a
 * time and held packed (lib/pool/timelines.ts): the request thread reads pages and answers windows.
 */
import "server-only";
import type { ChunkedView } from "@/lib/inspect/outline-chunk";
import type { RunSummary } from "@/lib/journal/types";
import { PooledTimelines } from "@/lib/pool/timelines";
import { pagedRead, projectionPool } from "./pool";
import { processWideStart } from "./process-wide";
import { getStore } from "./store";

/**
 * The run's timeline (and outline: its `entries`) through at least `run.lastSeq`, or undefined for
 * an unknown run. A view: later growth of the run does not change it.
 */
export async function runTimeline(runId: string, run?: RunSummary): Promise<ChunkedView | undefined> {
  const timelines = await processWideStart("timelines", async () => new PooledTimelines(await getStore(), projectionPool(), { gate: pagedRead }));
  return timelines.timeline(runId, run);
}

/** The run's outline entries (the timeline's): see runTimeline. */
export const runOutline = runTimeline;
