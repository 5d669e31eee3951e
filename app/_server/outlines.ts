/** The server process's outline cache (lib/inspect/outline-cache.ts) over its one store. */
import "server-only";
import { OutlineCache } from "@/lib/inspect/outline-cache";
import type { OutlineEntry } from "@/lib/inspect/outline";
import type { RunSummary } from "@/lib/journal/types";
import { processWideStart } from "./process-wide";
import { getStore } from "./store";

export async function runOutline(runId: string, run?: RunSummary): Promise<OutlineEntry[] | undefined> {
  const cache = await processWideStart("outlines", async () => new OutlineCache(await getStore()));
  return cache.outline(runId, run);
}
