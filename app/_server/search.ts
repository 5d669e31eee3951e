/**
 * The server process's search inside runs, through the projection pool (lib/pool/search.ts). One
 * PooledSearch per BACKTRACK_REDACT_KEYS setting: a changed setting never searches texts redacted
 * under the old one.
 */
import "server-only";
import type { SearchResult } from "@/lib/inspect/search";
import type { RunSummary } from "@/lib/journal/types";
import { PooledSearch } from "@/lib/pool/search";
import { pagedRead, projectionPool } from "./pool";
import { processWideStart } from "./process-wide";
import { getStore } from "./store";

/** Searches run `run`'s redacted records for `query`: what GET /api/runs/{id}/search answers. */
export async function searchRun(run: RunSummary, query: string, options: { cursor?: number; limit?: number }): Promise<SearchResult> {
  const setting = process.env.BACKTRACK_REDACT_KEYS;
  const searches = await processWideStart(`search:${setting ?? ""}`, async () => new PooledSearch(await getStore(), projectionPool(), setting, { gate: pagedRead }));
  return searches.search(run, query, options);
}
