"use client";

/**
 * Live changes over server-sent events (/api/stream, /api/runs/{id}/stream). `onChange` gets each
 * coalesced event, and an empty list when the stream (re)connects (resync). `connected` is false while the stream is down: callers poll only then.
 */
import { useEffect, useRef, useState } from "react";
import type { LiveChange, LiveChangeEvent } from "@/lib/inspect/live";

export type LiveState = "connecting" | "live" | "reconnecting";

export function useLiveChanges(url: string | null, onChange: (changes: LiveChange[]) => void): { connected: boolean; state: LiveState } {
  const [state, setState] = useState<LiveState>("connecting");
  const handler = useRef(onChange);
  useEffect(() => {
    handler.current = onChange;
  });
  useEffect(() => {
    if (!url) return;
    const source = new EventSource(url);
    let dropped = false;
    // hello: the stream is up; after a drop, changes may have been missed meanwhile, so callers resync.
    source.addEventListener("hello", () => {
      setState("live");
      if (dropped) handler.current([]);
    });
    source.addEventListener("change", (event) => {
      try {
        const data = JSON.parse((event as MessageEvent<string>).data) as LiveChangeEvent;
        handler.current(data.changes);
      } catch {
        // A malformed event is dropped; the next one carries the latest state anyway.
      }
    });
    // EventSource reconnects by itself; until it does, callers fall back to polling.
    source.addEventListener("error", () => {
      dropped = true;
      setState("reconnecting");
    });
    return () => {
      source.close();
      setState("connecting");
    };
  }, [url]);
  return { connected: state === "live", state };
}
