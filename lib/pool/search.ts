/**
 * Search inside runs through the pool: each page of a run's records becomes its redacted search
 * texts in a worker (tasks.ts searchPage), held packed per run (caught up on appended records
 * only), and searched in a worker too (tasks.ts search). Texts are redacted with `secretKeys`
 * when they are made, so nothing held is a secret in searchable form: one PooledSearch per
 * redaction setting.
 */
import type { SearchResult } from "../inspect/search";
import type { Journal } from "../journal/ports";
import type { RunSummary } from "../journal/types";
import { foldPages, moved, pageRecords } from "./pages";
import type { ProjectionPool } from "./pool";
import { RunCaches } from "./run-caches";
import type { SearchChunk } from "./tasks";
import type { PooledOptions } from "./timelines";

interface Texts {
  chunks: SearchChunk[];
  length: number;
  chars: number;
}

export class PooledSearch {
  private readonly caches: RunCaches<Texts>;

  constructor(
    private readonly store: Pick<Journal, "history">,
    private readonly pool: ProjectionPool,
    /** BACKTRACK_REDACT_KEYS's form: comma-separated key patterns, or undefined for the defaults. */
    private readonly secretKeys: string | undefined,
    private readonly options: PooledOptions = {},
  ) {
    this.caches = new RunCaches<Texts>({
      make: () => ({ chunks: [], length: 0, chars: 0 }),
      length: (held) => held.length,
      weight: (held) => held.chars,
      maxWeight: options.maxWeight ?? 64_000_000,
    });
  }

  /** Searches run `run`'s redacted records for `query` (SearchQueryError for a bad one). */
  async search(run: Pick<RunSummary, "runId" | "lastSeq" | "startedAt">, query: string, options: { cursor?: number; limit?: number } = {}): Promise<SearchResult> {
    const size = this.options.pageSize ?? pageRecords(this.store);
    const texts = await this.caches.upTo(run.runId, run, (entry, lastSeq) =>
      foldPages(this.store, run.runId, { from: entry.held.length, lastSeq, size, gate: this.options.gate }, async (page, from) => {
        const chunk = await this.pool.run("searchPage", { runId: run.runId, page, from, secretKeys: this.secretKeys }, { transfer: moved(page) });
        entry.held.chunks.push(chunk);
        entry.held.length += chunk.records;
        entry.held.chars += chunk.chars;
        return chunk.records;
      }),
    );
    const pick = (field: "texts" | "names" | "kinds") => texts.chunks.map((chunk) => chunk[field]);
    return this.pool.run("search", { query, length: Math.min(texts.length, run.lastSeq + 1), texts: pick("texts"), names: pick("names"), kinds: pick("kinds"), ...options });
  }
}
