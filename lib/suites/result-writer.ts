/**
 * ResultWriter: a batch's results stored a group at a time (SuiteStore.setResults, one statement a
 * group) instead of one statement per pinned run.
 *
 * Invariants:
 * - a result is reported (`onStored`) only after its row is written, in the order results were added;
 * - one write in flight at a time; a write takes every result queued when it starts;
 * - a write starts when `groupSize` results wait, `windowMs` after the first of them was added,
 *   or at `flush()`; the batch's end and its failure both flush;
 * - a failed write is the store failing, which fails the batch: its error is thrown by the next
 *   `add()` and by `flush()`. Its results stay pending, and driving the batch again resumes their
 *   replays (they are complete, so nothing runs twice).
 */
import type { SuiteStore } from "./store";
import type { BatchResult, ResultUpdate } from "./types";

/** Results a write waits for before it starts; about the replays in flight at the default concurrency, twice over. */
export const RESULT_GROUP = 16;
/** How long a finished result may wait for others (a page watching the batch sees it this late at most, plus a round trip). */
export const RESULT_WINDOW_MS = 100;

export class ResultWriter {
  private queued: BatchResult[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | undefined;

  constructor(
    private readonly suites: SuiteStore,
    private readonly batchId: string,
    private readonly onStored: (result: BatchResult) => void,
    private readonly groupSize = RESULT_GROUP,
    private readonly windowMs = RESULT_WINDOW_MS,
  ) {}

  /** Queues a finished result (its update merged in); throws when an earlier write failed. */
  add(result: BatchResult & ResultUpdate): void {
    if (this.failure) throw this.failure.error;
    this.queued.push(result);
    if (this.queued.length >= this.groupSize) void this.start();
    else this.timer ??= setTimeout(() => void this.start(), this.windowMs);
  }

  /** Writes everything queued; resolves when every write so far is done, rejects if one failed. */
  async flush(): Promise<void> {
    await this.start();
    if (this.failure) throw this.failure.error;
  }

  private start(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queued.length === 0) return this.writing;
    const group = this.queued;
    this.queued = [];
    this.writing = this.writing.then(() => this.write(group));
    return this.writing;
  }

  private async write(group: BatchResult[]): Promise<void> {
    if (this.failure) return;
    try {
      await this.suites.setResults(
        this.batchId,
        group.map((result) => ({ runId: result.runId, update: updateOf(result) })),
      );
    } catch (error) {
      this.failure = { error };
      return;
    }
    for (const result of group) this.onStored(result);
  }
}

function updateOf(result: ResultUpdate): ResultUpdate {
  const { status, replayRunId, divergentAt, divergence, reason, score } = result;
  return { status, replayRunId, divergentAt, divergence, reason, score };
}
