/**
 * What a server holds per run, built in the pool and caught up as the run grows (its outline and
 * timeline, its search texts): one value a run, least recently used dropped beyond a total weight.
 *
 * Invariants: requests that arrive together for a run share one catch-up, kept before anything is
 * awaited; a catch-up that fails keeps what it had added, and the next request goes on from
 * there; a run whose start differs from the one held (deleted and written again under its id) is
 * held afresh; a value being caught up is never dropped.
 */

export interface RunCacheOptions<Held> {
  make: () => Held;
  /** Records the value holds (seqs 0 … length − 1). */
  length: (held: Held) => number;
  /** What the value costs to hold, against `maxWeight`. */
  weight: (held: Held) => number;
  maxWeight: number;
}

interface Entry<Held> {
  held: Held;
  startedAt: string;
  pending?: Promise<void>;
}

export class RunCaches<Held> {
  private readonly runs = new Map<string, Entry<Held>>();

  constructor(private readonly options: RunCacheOptions<Held>) {}

  /**
   * The run's value through at least `lastSeq`, caught up by `catchUp(held, lastSeq)`, which adds
   * what follows what the value holds (and may replace the value through `reset`).
   */
  async upTo(runId: string, run: { lastSeq: number; startedAt: string }, catchUp: (entry: { held: Held }, lastSeq: number) => Promise<void>): Promise<Held> {
    let entry = this.runs.get(runId);
    this.runs.delete(runId);
    if (!entry || entry.startedAt !== run.startedAt) entry = { held: this.options.make(), startedAt: run.startedAt };
    // Most recently used last.
    this.runs.set(runId, entry);
    // Two rounds at most: a request may join a catch-up that stops short of its own lastSeq.
    for (let round = 0; round < 2 && this.options.length(entry.held) <= run.lastSeq; round += 1) {
      const current = entry;
      current.pending ??= catchUp(current, run.lastSeq).finally(() => {
        current.pending = undefined;
      });
      await current.pending;
    }
    this.evict(runId);
    return entry.held;
  }

  /** Forgets a run (deleted). */
  forget(runId: string): void {
    this.runs.delete(runId);
  }

  private evict(keep: string): void {
    let total = 0;
    for (const entry of this.runs.values()) total += this.options.weight(entry.held);
    for (const [runId, entry] of this.runs) {
      if (total <= this.options.maxWeight) return;
      if (runId === keep || entry.pending) continue;
      total -= this.options.weight(entry.held);
      this.runs.delete(runId);
    }
  }
}
