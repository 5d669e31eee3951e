/**
 * Runs' outlines and timelines built in the pool: a run is read a page at a time, each page folded
 * in a worker (tasks.ts outlinePage: lib/inspect/outline-chunk.ts) and held packed in a
 * ChunkedTimeline, caught up on appended records only (records never change once written, and
 * seqs are dense, so a page whose seqs break off means the run was written again: read afresh).
 * The reading thread reads pages and strings chunks together; it parses nothing.
 */
import { ChunkedTimeline, type ChunkedView } from "../inspect/outline-chunk";
import type { Journal } from "../journal/ports";
import type { RunSummary } from "../journal/types";
import { foldPages, moved, pageRecords, type Gate } from "./pages";
import type { ProjectionPool } from "./pool";
import { RunCaches } from "./run-caches";

export interface PooledOptions {
  /** Steps (timelines) or characters (search texts) held across all runs. */
  maxWeight?: number;
  /** Records a page; default pageRecords(store). */
  pageSize?: number;
  gate?: Gate;
}

export class PooledTimelines {
  private readonly caches: RunCaches<ChunkedTimeline>;

  constructor(
    private readonly store: Pick<Journal, "history" | "run">,
    private readonly pool: ProjectionPool,
    private readonly options: PooledOptions = {},
  ) {
    this.caches = new RunCaches({ make: () => new ChunkedTimeline(), length: (held) => held.length, weight: (held) => held.length, maxWeight: options.maxWeight ?? 600_000 });
  }

  /**
   * The run's timeline (and outline: its `entries`) through at least `run.lastSeq`, or undefined
   * for an unknown run. A view: later growth of the run does not change it.
   */
  async timeline(runId: string, run?: Pick<RunSummary, "lastSeq" | "startedAt">): Promise<ChunkedView | undefined> {
    const summary = run ?? (await this.store.run(runId));
    if (!summary) return undefined;
    const size = this.options.pageSize ?? pageRecords(this.store);
    const timeline = await this.caches.upTo(runId, summary, (entry, lastSeq) =>
      foldPages(this.store, runId, { from: entry.held.length, lastSeq, size, gate: this.options.gate }, async (page) => {
        const chunk = await this.pool.run("outlinePage", { runId, page, totals: entry.held.totals }, { transfer: moved(page) });
        if (chunk.gap || !entry.held.append(chunk)) {
          // The run and what is held disagree (deleted and written again): start it over.
          entry.held = new ChunkedTimeline();
          return 0;
        }
        return chunk.records;
      }),
    );
    return timeline.view();
  }
}
