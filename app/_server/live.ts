/**
 * Live changes for the inspector: one store subscription per server process (Postgres NOTIFY
 * through store.subscribe, from any process sharing the database), fanned out to the open
 * server-sent-event streams. Each stream coalesces what arrives within FLUSH_MS into one event
 * holding the latest seq and status of each changed run, so a busy writer cannot flood a browser.
 *
 * Notes are hints (lib/store/notify-batch.ts): one can be lost (a batch that failed to send, a
 * listener connection that reconnected). A stream of one run therefore also reads the run every
 * CATCH_UP_MS and sends a change when it moved past what the stream last told: a lost last note
 * (the run's completion) is caught up within that time instead of never.
 */
import "server-only";
import type { LiveChange, LiveChangeEvent } from "@/lib/inspect/live";
import type { JournalNotification } from "@/lib/journal/types";
import { processWide } from "./process-wide";
import { getStore } from "./store";

type Listener = (note: JournalNotification) => void;

interface Hub {
  listeners: Set<Listener>;
  subscribed: Promise<void> | null;
}

function hub(): Hub {
  return processWide<Hub>("live", () => ({ listeners: new Set(), subscribed: null }));
}

/** Calls `listener` for every change until the returned function is called. */
export async function watch(listener: Listener): Promise<() => void> {
  const state = hub();
  state.listeners.add(listener);
  if (!state.subscribed) {
    state.subscribed = (async () => {
      const store = await getStore();
      await store.subscribe((note) => {
        for (const each of state.listeners) each(note);
      });
    })().catch((error: unknown) => {
      // Not cached: the next stream tries again.
      state.subscribed = null;
      throw error;
    });
  }
  try {
    await state.subscribed;
  } catch (error) {
    state.listeners.delete(listener);
    throw error;
  }
  return () => {
    state.listeners.delete(listener);
  };
}

export const FLUSH_MS = 100;
const KEEPALIVE_MS = 15_000;
/** How often a one-run stream reads its run, in case a note was lost. */
export const CATCH_UP_MS = 2_000;

/** Reads the watched run's latest seq and status (undefined once it is gone). */
export type CatchUp = () => Promise<LiveChange | undefined>;

/** Whether `current` is news to a stream that last told `known`. */
function moved(known: LiveChange | undefined, current: LiveChange): boolean {
  return !known || current.seq > known.seq || current.status !== known.status;
}

/**
 * A server-sent-event response of the changes that pass `filter`. `hello` is sent first (after
 * the subscription is up, so nothing falls between it and the first change). With `catchUp`, the
 * stream also reads the run every CATCH_UP_MS (see the header).
 */
export function changeStream(request: Request, filter: (note: JournalNotification) => boolean, hello: () => Promise<unknown>, catchUp?: CatchUp): Response {
  const encoder = new TextEncoder();
  let cleanup = () => undefined as void;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      const pending = new Map<string, LiveChange>();
      /** What this stream last told of its run, for catch-up. */
      let told: LiveChange | undefined;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const write = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      const flush = () => {
        timer = undefined;
        if (pending.size === 0) return;
        const event: LiveChangeEvent = { changes: [...pending.values()] };
        pending.clear();
        const change = event.changes[0];
        // A status note alone carries seq -1: what was told of the seq stands.
        if (catchUp && change) told = { ...change, seq: Math.max(change.seq, told?.seq ?? -1) };
        write(`event: change\ndata: ${JSON.stringify(event)}\n\n`);
      };
      const stop = await watch((note) => {
        if (!filter(note)) return;
        const previous = pending.get(note.runId);
        pending.set(note.runId, { runId: note.runId, seq: Math.max(note.seq, previous?.seq ?? -1), status: note.status });
        timer ??= setTimeout(flush, FLUSH_MS);
      });
      const keepalive = setInterval(() => write(": keepalive\n\n"), KEEPALIVE_MS);
      const readRun = async () => {
        const current = await catchUp?.().catch(() => undefined);
        // A note already queued says as much or more; its flush tells it.
        if (current && pending.size === 0 && moved(told, current)) {
          told = current;
          write(`event: change\ndata: ${JSON.stringify({ changes: [current] } satisfies LiveChangeEvent)}\n\n`);
        }
      };
      const catchUpTimer = catchUp ? setInterval(() => void readRun(), CATCH_UP_MS) : undefined;
      cleanup = () => {
        if (closed) return;
        closed = true;
        stop();
        clearInterval(keepalive);
        clearInterval(catchUpTimer);
        if (timer) clearTimeout(timer);
        try {
          controller.close();
        } catch {
          // Already closed by the client.
        }
      };
      request.signal.addEventListener("abort", () => cleanup());
      told = await catchUp?.().catch(() => undefined);
      write(`retry: 2000\nevent: hello\ndata: ${JSON.stringify(await hello())}\n\n`);
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      // no-transform: keeps compression from buffering the stream.
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
}
