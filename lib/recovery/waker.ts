/**
 * Wakers: when a run sleeps (`sleep(ctx, ms)`), the sleep journals its wake time and tells the
 * drive's Waker, if one is bound (`withWaker`). Replaying into a sleep tells the Waker again, so
 * a process that re-drives its runs after a restart rebuilds its timers by ordinary replay.
 * MemWaker lives in memory (a manual clock for tests); PostgresWaker keeps timers in a table.
 * The Waker port itself is in lib/journal/ports.ts, so the agent loop needs nothing of recovery.
 */
import type { RunOptions } from "../agent/agent";
import { BadInputError } from "../journal/errors";
import type { Wake, Waker } from "../journal/ports";

/** Run options that bind `waker` to a drive (the seed's WithWaker). */
export function withWaker(waker: Waker, options: RunOptions = {}): RunOptions {
  return { ...options, waker };
}

export interface MemWakerOptions {
  /** Start a manual clock at this time (epoch ms): it then moves only with advance(). Default: the system clock. */
  startAt?: number;
}

/** An in-memory Waker: the reference, and a clock tests can move. A process exit loses its timers. */
export class MemWaker implements Waker {
  private readonly wakes = new Map<string, Wake>();
  private offset = 0;

  constructor(private readonly options: MemWakerOptions = {}) {}

  now(): number {
    return (this.options.startAt ?? Date.now()) + this.offset;
  }

  /** Moves the clock forward. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new BadInputError(`advance needs a non-negative number of milliseconds, got ${ms}`);
    this.offset += ms;
  }

  async register(wake: Wake): Promise<void> {
    const key = `${wake.runId}\u0000${wake.name}`;
    if (!this.wakes.has(key)) this.wakes.set(key, { ...wake });
  }

  async due(limit = Number.POSITIVE_INFINITY): Promise<Wake[]> {
    const now = this.now();
    return [...this.wakes.values()]
      .filter((wake) => Date.parse(wake.wakeAt) <= now)
      .sort((a, b) => Date.parse(a.wakeAt) - Date.parse(b.wakeAt))
      .slice(0, limit);
  }

  async clear(runId: string, name: string): Promise<void> {
    this.wakes.delete(`${runId}\u0000${name}`);
  }

  /** Every registered wake-up, due or not. */
  pending(): Wake[] {
    return [...this.wakes.values()];
  }
}
