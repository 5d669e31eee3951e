/**
 * Journal notifications, coalesced off the append's hot path. An append used to NOTIFY inside its
 * own statement; PostgreSQL serialises the commits of notifying transactions (one lock on the
 * notification queue, held through the commit's WAL flush), so concurrent appends could not share
 * an fsync. Notifications are not durable anyway (a listener that was not connected misses them),
 * so they are sent after the append, a batch at a time, by a statement of their own.
 *
 * Invariants:
 * - a note is queued only after its append returned, so a listener that reads on a note sees the
 *   record (as before: NOTIFY was delivered at the append's commit);
 * - this process's notes reach listeners in the order they were queued: one batch in flight at a
 *   time, each batch's payloads notified in order within one transaction;
 * - a note is sent within NOTIFY_WINDOW_MS of being queued (plus a round trip), except that batches
 *   go at most one per NOTIFY_GAP_MS: a writer that keeps appending sends one statement per gap,
 *   not one per window (on a one-connection pool each batch holds the connection an append
 *   waits for). A queue that fills QUEUE_BYTES goes at once; `flush()` (and so the store's close)
 *   sends what is queued;
 * - a batch that fails to send is dropped, never retried or thrown at an append: the records are
 *   committed, and a live view catches up on the run's next note, which carries a higher seq;
 * - the batch statement commits with synchronous_commit off: it writes nothing worth an fsync.
 */
import type { JournalNotification } from "../journal/types";
import type { SqlClient } from "./sql-client";

/** How long a note may wait for others to share its NOTIFY. The live stream itself waits 100 ms. */
export const NOTIFY_WINDOW_MS = 25;
/** The least time between two batches while notes keep coming: the live stream's own wait. */
export const NOTIFY_GAP_MS = 100;
/** PostgreSQL refuses a payload of 8,000 bytes or more; a batch payload stays under this. */
const PAYLOAD_BYTES = 7_500;
/** Queued notes that are sent at once, whatever the gap: a few payloads, in one statement. */
const QUEUE_BYTES = 8 * PAYLOAD_BYTES;

const SEND_SQL = `
SELECT set_config('synchronous_commit', 'off', true) AS sync, count(pg_notify($1::text, payload)) AS sent
FROM json_array_elements_text($2::text::json) AS payload`;

/** One note as the channel carries it: `[runId, seq, kind, status]`. */
export function encodeNote(note: JournalNotification): string {
  return JSON.stringify([note.runId, note.seq, note.kind, note.status]);
}

/** Groups encoded notes into batch payloads (`[note, note, …]`), each under the payload limit. */
export function batchPayloads(notes: readonly string[]): string[] {
  const payloads: string[] = [];
  let current: string[] = [];
  let bytes = 2;
  for (const note of notes) {
    const size = Buffer.byteLength(note, "utf8") + 1;
    if (current.length > 0 && bytes + size > PAYLOAD_BYTES) {
      payloads.push(`[${current.join(",")}]`);
      current = [];
      bytes = 2;
    }
    current.push(note);
    bytes += size;
  }
  if (current.length > 0) payloads.push(`[${current.join(",")}]`);
  return payloads;
}

export class NotificationBatcher {
  /** Encoded at flush, in the timer's turn: not on the append's path. */
  private queued: JournalNotification[] = [];
  private queuedBytes = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private sending: Promise<void> = Promise.resolve();
  /** When the last batch was taken from the queue (performance.now()); none yet: -Infinity. */
  private lastBatchAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly client: SqlClient,
    private readonly channel: string,
    private readonly windowMs = NOTIFY_WINDOW_MS,
    private readonly gapMs = NOTIFY_GAP_MS,
  ) {}

  /** Queues a note; it is sent within the window, or one gap after the last batch. */
  add(note: JournalNotification): void {
    this.queued.push(note);
    // About a note's encoded size (its run id and kind, a seq and a status): a bound on the queue,
    // not a payload's size, which batchPayloads measures.
    this.queuedBytes += note.runId.length + note.kind.length + 30;
    if (this.queuedBytes >= QUEUE_BYTES) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), Math.max(this.windowMs, this.lastBatchAt + this.gapMs - performance.now()));
  }

  /** Sends every queued note; resolves when they (and earlier batches) were sent or dropped. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queued.length === 0) return this.sending;
    const payloads = batchPayloads(this.queued.map(encodeNote));
    this.lastBatchAt = performance.now();
    this.queued = [];
    this.queuedBytes = 0;
    this.sending = this.sending.then(() => this.send(payloads));
    return this.sending;
  }

  private async send(payloads: string[]): Promise<void> {
    try {
      await this.client.query(SEND_SQL, [this.channel, JSON.stringify(payloads)], { prepare: true });
    } catch {
      // Dropped on purpose (see the header): the appends are committed; notes are only hints.
    }
  }
}
