/**
 * Outlines of runs kept in memory by a server process, so that opening a run, scrubbing it and
 * watching it grow read each record from the database once: a later request reads only the
 * records appended since (records never change once written, and seqs are dense).
 * The least recently used runs are dropped beyond `maxEntries` entries in all. Page-only: not
 * exported from the package entry (the server imports it by path).
 */
import type { Journal } from "../journal/ports";
import type { RunSummary } from "../journal/types";
import { outlineEntry, type OutlineEntry } from "./outline";

interface OutlineCacheOptions {
  /** Entries kept across all runs. */
  maxEntries?: number;
  /** Records read per query while catching up. */
  pageSize?: number;
}

interface Cached {
  entries: OutlineEntry[];
  /** The catch-up in progress, shared by concurrent requests. */
  pending?: Promise<void>;
}

export class OutlineCache {
  private readonly runs = new Map<string, Cached>();
  private readonly maxEntries: number;
  private readonly pageSize: number;
  private total = 0;

  constructor(
    private readonly store: Pick<Journal, "history" | "run">,
    options: OutlineCacheOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? 600_000;
    this.pageSize = options.pageSize ?? 5_000;
  }

  /**
   * The outline of a run through at least `run.lastSeq` (the summary read by the caller, or read
   * here), or undefined for an unknown run. The array is shared: callers must not change it.
   */
  async outline(runId: string, run?: Pick<RunSummary, "lastSeq">): Promise<OutlineEntry[] | undefined> {
    const summary = run ?? (await this.store.run(runId));
    if (!summary) return undefined;
    let cached = this.runs.get(runId);
    if (cached) {
      // Most recently used last.
      this.runs.delete(runId);
      this.runs.set(runId, cached);
    } else {
      cached = { entries: [] };
      this.runs.set(runId, cached);
    }
    // Two rounds at most: a request may join a catch-up that stops short of its own lastSeq.
    for (let round = 0; round < 2 && cached.entries.length <= summary.lastSeq; round += 1) {
      const entry = cached;
      entry.pending ??= this.catchUp(runId, entry, summary.lastSeq).finally(() => {
        entry.pending = undefined;
      });
      await entry.pending;
    }
    this.evict(runId);
    return cached.entries;
  }

  private async catchUp(runId: string, cached: Cached, lastSeq: number): Promise<void> {
    while (cached.entries.length <= lastSeq) {
      const from = cached.entries.length;
      const records = await this.store.history(runId, { from, limit: this.pageSize });
      let added = 0;
      for (const record of records) {
        // Dense seqs: anything else means the cache and the database disagree; start the run over.
        if (record.seq !== cached.entries.length) {
          this.total -= cached.entries.length;
          cached.entries = [];
          return;
        }
        cached.entries.push(outlineEntry(record));
        added += 1;
      }
      this.total += added;
      if (records.length < this.pageSize) return;
    }
  }

  private evict(keep: string): void {
    for (const [runId, cached] of this.runs) {
      if (this.total <= this.maxEntries) return;
      if (runId === keep || cached.pending) continue;
      this.total -= cached.entries.length;
      this.runs.delete(runId);
    }
  }
}
