/**
 * Diffs built in the pool (tasks.ts diffRuns): the reading thread reads both runs' decision
 * records a window of seqs at a time and hands each page, unparsed, to the worker through a port,
 * at most IN_FLIGHT pages ahead of it; the worker answers with the diff packed
 * (lib/inspect/packed-diff.ts). A task that ends early (its worker died or ran too long) stops the
 * reading: nobody waits on a port no one reads.
 */
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { DECISION_KINDS } from "../inspect/decision-points";
import type { PackedDiff } from "../inspect/packed-diff";
import type { Journal } from "../journal/ports";
import type { RunSummary } from "../journal/types";
import { moved, pageRecords, readPage, type Gate } from "./pages";
import type { ProjectionPool } from "./pool";
import type { DiffMessage } from "./tasks";

/** Pages sent to the worker and not yet folded by it. */
const IN_FLIGHT = 4;

/** The diff of two runs, built in the pool from their decision records, packed. */
export async function pooledDiff(
  store: Pick<Journal, "history">,
  pool: ProjectionPool,
  runA: Pick<RunSummary, "runId" | "lastSeq">,
  runB: Pick<RunSummary, "runId" | "lastSeq">,
  options: { realign: boolean; pageSeqs?: number; gate?: Gate },
): Promise<PackedDiff> {
  const { realign } = options;
  const size = options.pageSeqs ?? pageRecords(store);
  const { port1, port2 } = new MessageChannel();
  const task = pool.run("diffRuns", { a: runA.runId, b: runB.runId, realign, port: port2 }, { transfer: [port2] });
  let settled = false;
  const over = task.then(
    () => (settled = true),
    () => (settled = true),
  );
  try {
    await sendPages(port1, store, [runA, runB], { size, gate: options.gate }, () => settled, over);
  } finally {
    port1.close();
  }
  return task;
}

/**
 * Sends both runs' decision records to the worker, A then B, a window of `size` seqs a page; stops
 * early once the task is over (its worker died or timed out, and nobody reads the port).
 */
async function sendPages(
  port: MessagePort,
  store: Pick<Journal, "history">,
  runs: ReadonlyArray<Pick<RunSummary, "runId" | "lastSeq">>,
  { size, gate }: { size: number; gate?: Gate },
  over: () => boolean,
  settled: Promise<unknown>,
): Promise<void> {
  let unacknowledged = 0;
  let wake: (() => void) | undefined;
  port.on("message", () => {
    unacknowledged -= 1;
    wake?.();
  });
  for (const [index, run] of runs.entries()) {
    for (let from = 0; from <= run.lastSeq; from += size) {
      while (unacknowledged >= IN_FLIGHT && !over()) await Promise.race([new Promise<void>((resume) => (wake = resume)), settled]);
      if (over()) return;
      const page = await readPage(store, run.runId, { from, before: Math.min(from + size, run.lastSeq + 1), kinds: DECISION_KINDS }, gate);
      const message: DiffMessage = { side: index === 0 ? "A" : "B", page };
      port.postMessage(message, moved(page));
      unacknowledged += 1;
    }
  }
  port.postMessage({ end: true } satisfies DiffMessage);
}
