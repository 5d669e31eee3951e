/**
 * Live changes for the inspector: one store subscription per server process (Postgres NOTIFY
 * through store.subscribe, from any process sharing the database), fanned out to the open
 * server-sent-event streams. Each stream coalesces what arrives within FLUSH_MS into one event
 * holding the latest seq and status of each changed run, so a busy writer cannot flood a browser.
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

/**
 * A server-sent-event response of the changes that pass `filter`. `hello` is sent first (after
 * the subscription is up, so nothing falls between it and the first change).
 */
export function changeStream(request: Request, filter: (note: JournalNotification) => boolean, hello: () => Promise<unknown>): Response {
  const encoder = new TextEncoder();
  let cleanup = () => undefined as void;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      const pending = new Map<string, LiveChange>();
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
        write(`event: change\ndata: ${JSON.stringify(event)}\n\n`);
      };
      const stop = await watch((note) => {
        if (!filter(note)) return;
        const previous = pending.get(note.runId);
        pending.set(note.runId, { runId: note.runId, seq: Math.max(note.seq, previous?.seq ?? -1), status: note.status });
        timer ??= setTimeout(flush, FLUSH_MS);
      });
      const keepalive = setInterval(() => write(": keepalive\n\n"), KEEPALIVE_MS);
      cleanup = () => {
        if (closed) return;
        closed = true;
        stop();
        clearInterval(keepalive);
        if (timer) clearTimeout(timer);
        try {
          controller.close();
        } catch {
          // Already closed by the client.
        }
      };
      request.signal.addEventListener("abort", () => cleanup());
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
