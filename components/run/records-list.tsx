"use client";

/** Every record of the run as a virtualised list (a 100,000-record run mounts only what shows). */
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef } from "react";
import type { OutlineEntry } from "@/lib/inspect/outline";

const ROW_HEIGHT = 26;

export function RecordsList({ entries, at, onAt }: { entries: readonly OutlineEntry[]; at: number; onAt: (at: number) => void }) {
  const scroller = useRef<HTMLDivElement>(null);
  // The virtualizer's functions are not memoisable: the React compiler leaves this component alone.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({ count: entries.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  // Keeps the cursor's row in view. Rows have a fixed height and the virtualizer tracks the scroll
  // position and the viewport, so nothing is read from the layout; and a row out of view is brought
  // to the middle, so that the next steps need no scrolling (writing scrollTop forces a layout).
  useEffect(() => {
    const element = scroller.current;
    if (!element || at >= entries.length) return;
    const top = at * ROW_HEIGHT;
    const offset = virtualizer.scrollOffset ?? 0;
    const height = virtualizer.scrollRect?.height ?? 0;
    if (top < offset || top + ROW_HEIGHT > offset + height) element.scrollTop = Math.max(0, top - height / 2);
  }, [at, entries.length, virtualizer]);
  return (
    <section className="panel" aria-labelledby="records-heading">
      <h2 id="records-heading">Records ({entries.length.toLocaleString("en-US")})</h2>
      <div ref={scroller} className="records-list" data-testid="records-list">
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualizer.getVirtualItems().map((item) => {
            const entry = entries[item.index]!;
            const place = entry.seq === at ? "current" : entry.seq < at ? "past" : "future";
            return (
              <button
                key={item.key}
                type="button"
                className={`record-row ${place}${entry.failed || entry.unknown ? " failed" : ""}`}
                style={{ position: "absolute", top: 0, left: 0, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
                aria-current={place === "current" ? "step" : undefined}
                onClick={() => onAt(entry.seq)}
              >
                <span className="seq">{entry.seq}</span>
                <span className="kind">{entry.kind}</span>
                <span className="title">{entry.title}</span>
              </button>
            );
          })}
        </div>
      </div>
    </section>
  );
}
