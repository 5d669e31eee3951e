/**
 * Heavy reads take turns. A cold outline, timeline or diff of a 200,000-record run is read in
 * dozens of pages (and built in the projection pool, lib/pool); with several such reads at once,
 * each loop turn used to receive a page for every one of them, and a light request such as
 * /api/health waited behind all of them at every hop (pool.ts pagedRead takes the turns).
 *
 * Invariants (process-wide, one per server process):
 * - `nextTurn()` resolves its waiters one per macrotask, first come first served: between two heavy
 *   steps the event loop always polls, so light requests wait for at most one step per hop;
 * - `bulkRead(read)` lets at most BULK_READS whole-history page reads be in flight at once, so the
 *   rows arriving in one poll phase are at most that many pages.
 */
import "server-only";
import { processWide } from "./process-wide";

/** Page reads of whole histories in flight at once, across every pass of the process. */
export const BULK_READS = 1;

interface Turns {
  waiting: Array<() => void>;
  draining: boolean;
  reads: number;
  readers: Array<() => void>;
}

const turns = (): Turns => processWide("turns", (): Turns => ({ waiting: [], draining: false, reads: 0, readers: [] }));

function drain(state: Turns): void {
  const next = state.waiting.shift();
  if (!next) {
    state.draining = false;
    return;
  }
  next();
  setImmediate(drain, state);
}

/** Resolves in a later macrotask, after the heavy steps queued before this one. */
export function nextTurn(): Promise<void> {
  const state = turns();
  return new Promise((resume) => {
    state.waiting.push(resume);
    if (!state.draining) {
      state.draining = true;
      setImmediate(drain, state);
    }
  });
}

/** Runs `read` when fewer than BULK_READS others are in flight (first come first served). */
export async function bulkRead<T>(read: () => Promise<T>): Promise<T> {
  const state = turns();
  if (state.reads >= BULK_READS) await new Promise<void>((go) => state.readers.push(go));
  else state.reads += 1;
  try {
    return await read();
  } finally {
    const next = state.readers.shift();
    if (next) next();
    else state.reads -= 1;
  }
}
