"use client";

/**
 * The session's events as a list of steps: row 0 is the initial state, row N the event that makes
 * step N. Virtualised with fixed-height rows, so a long session mounts only what shows.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef } from "react";
import type { SessionEvent } from "@/lib/sessions/types";

const ROW_HEIGHT = 26;

/** "cart=2, discount=…", plus the temp: keys; the changes of an event in a few words. */
function deltaSummary(event: SessionEvent): string {
  const parts = Object.entries(event.actions.stateDelta).map(([key, value]) => (value === null ? `−${key}` : `${key}=${truncate(JSON.stringify(value), 24)}`));
  for (const key of event.actions.tempKeys ?? []) parts.push(`${key} (temp)`);
  return parts.length > 0 ? parts.join(", ") : "no state change";
}

function truncate(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

export function SessionEvents({ events, at, onAt }: { events: readonly SessionEvent[]; at: number; onAt: (at: number) => void }) {
  const scroller = useRef<HTMLDivElement>(null);
  const count = events.length + 1;
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  // Keeps the cursor's row in view without reading the layout (fixed rows; see components/run/records-list.tsx).
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const top = at * ROW_HEIGHT;
    const offset = virtualizer.scrollOffset ?? 0;
    const height = virtualizer.scrollRect?.height ?? 0;
    if (top < offset || top + ROW_HEIGHT > offset + height) element.scrollTop = Math.max(0, top - height / 2);
  }, [at, virtualizer]);
  return (
    <section className="panel" aria-labelledby="session-events-heading">
      <h2 id="session-events-heading">Events ({events.length.toLocaleString("en-US")})</h2>
      <div ref={scroller} className="records-list session-events" style={{ height: `min(60vh, ${count * ROW_HEIGHT + 2}px)` }} data-testid="session-events">
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualizer.getVirtualItems().map((item) => {
            const step = item.index;
            const event = step > 0 ? events[step - 1] : undefined;
            const place = step === at ? "current" : step < at ? "past" : "future";
            return (
              <button
                key={item.key}
                type="button"
                className={`record-row ${place}`}
                style={{ position: "absolute", top: 0, left: 0, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
                aria-current={place === "current" ? "step" : undefined}
                aria-label={event ? `Event ${step}: ${event.id} by ${event.author}, ${deltaSummary(event)}` : "Initial state"}
                onClick={() => onAt(step)}
              >
                <span className="seq">{step}</span>
                {event ? (
                  <>
                    <span className="kind">{event.id}</span>
                    <span className="title">
                      {event.author} · {deltaSummary(event)}
                    </span>
                  </>
                ) : (
                  <span className="title">initial state</span>
                )}
              </button>
            );
          })}
        </div>
      </div>
    </section>
  );
}
