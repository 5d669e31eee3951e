/** The server process's outline cache (lib/inspect/outline-cache.ts) over its one store. */
import "server-only";
import { OutlineCache } from "@/lib/inspect/outline-cache";
import type { OutlineEntry } from "@/lib/inspect/outline";
import type { RunSummary } from "@/lib/journal/types";
import { getStore } from "./store";

const KEY = Symbol.for("backtrack.inspector.outlines");
type Holder = typeof globalThis & { [KEY]?: OutlineCache };

export async function runOutline(runId: string, run?: RunSummary): Promise<OutlineEntry[] | undefined> {
  const holder = globalThis as Holder;
  holder[KEY] ??= new OutlineCache(await getStore());
  return holder[KEY].outline(runId, run);
}
