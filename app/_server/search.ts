/** The server process's search texts (lib/inspect/search-cache.ts) over its one store, redacted with the server's secret keys. */
import "server-only";
import { SearchCache } from "@/lib/inspect/search-cache";
import type { SearchSource } from "@/lib/inspect/search";
import type { RunSummary } from "@/lib/journal/types";
import { processWideStart } from "./process-wide";
import { serverSecretKeys } from "./redaction";
import { getStore } from "./store";

/** The run's search texts, or undefined for an unknown run. One cache per BACKTRACK_REDACT_KEYS setting: a changed setting never searches texts redacted under the old one. */
export async function runSearchSource(runId: string, run: RunSummary): Promise<SearchSource | undefined> {
  const setting = process.env.BACKTRACK_REDACT_KEYS ?? "";
  const cache = await processWideStart(`search:${setting}`, async () => new SearchCache(await getStore(), { redaction: { isSecret: serverSecretKeys() } }));
  return cache.source(runId, run);
}
