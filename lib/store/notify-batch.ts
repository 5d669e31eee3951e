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
 * - a note is sent within WINDOW_MS of being queued (plus a round trip), or at once when the
 *   queue fills a payload; `flush()` (and so the store's close) sends what is queued;
 * - a batch that fails to send is dropped, never retried or thrown at an append: the records are
 *   committed, and a live view catches up on the run's next note, which carries a higher seq;
 * - the batch statement commits with synchronous_commit off: it writes nothing worth an fsync.
 */
import type { JournalNotification } from "../journal/types";
import type { SqlClient } from "./sql-client";

/** How long a note may wait for others to share its NOTIFY. The live stream itself waits 100 ms. */
export const NOTIFY_WINDOW_MS = 25;
/** PostgreSQL refuses a payload of 8,000 bytes or more; a batch payload stays under this. */
const PAYLOAD_BYTES = 7_500;

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
  private queued: string[] = [];
  private queuedBytes = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private sending: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: SqlClient,
    private readonly channel: string,
    private readonly windowMs = NOTIFY_WINDOW_MS,
  ) {}

  /** Queues a note; it is sent within the window. */
  add(note: JournalNotification): void {
    const encoded = encodeNote(note);
    this.queued.push(encoded);
    this.queuedBytes += encoded.length + 1;
    if (this.queuedBytes >= PAYLOAD_BYTES) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.windowMs);
  }

  /** Sends every queued note; resolves when they (and earlier batches) were sent or dropped. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queued.length === 0) return this.sending;
    const payloads = batchPayloads(this.queued);
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
