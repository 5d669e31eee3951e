"use client";

/**
 * The diff's rows, one per decision point, virtualised (two 20,000-record runs make about 24,000
 * rows; only what shows is mounted). The server renders the rows around the cursor already
 * scrolled there (initialOffset), so the page opens on the selected row before any script runs.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef } from "react";
import { rowWord, type DiffRow, type ForkLineageView } from "@/lib/inspect/diff-view";

const ROW_HEIGHT = 28;
/** The list's height before it is measured (its CSS height on a common screen). */
const ASSUMED_HEIGHT = 560;

export interface DiffRowsProps {
  rows: readonly DiffRow[];
  at: number;
  onAt: (at: number) => void;
  divergentAt: number | null;
  /** B is a fork of A: rows it copied and the row it edited say so. */
  lineage: ForkLineageView | null;
}

export function DiffRows({ rows, at, onAt, divergentAt, lineage }: DiffRowsProps) {
  const scroller = useRef<HTMLDivElement>(null);
  // A short diff gets a short list; a long one a window of ASSUMED_HEIGHT (less on a small screen, by CSS).
  const height = Math.min(ASSUMED_HEIGHT, rows.length * ROW_HEIGHT + 2);
  const opening = Math.max(0, at * ROW_HEIGHT - height / 2);
  // The virtualizer's functions are not memoisable: the React compiler leaves this component alone.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    initialOffset: opening,
    initialRect: { width: 400, height },
  });
  // Keeps the cursor's row in view: a row out of view is brought to the middle (see RecordsList).
  useEffect(() => {
    const element = scroller.current;
    if (!element || at >= rows.length) return;
    const top = at * ROW_HEIGHT;
    const offset = element.scrollTop;
    const height = element.clientHeight;
    if (top < offset || top + ROW_HEIGHT > offset + height) element.scrollTop = Math.max(0, top - height / 2 + ROW_HEIGHT / 2);
  }, [at, rows.length]);

  return (
    <div ref={scroller} className="diff-rows" style={{ height }} data-testid="diff-rows" role="list" aria-label="Decision points">
      <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          const selected = row.index === at;
          return (
            <div key={item.key} role="listitem" style={{ position: "absolute", top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}>
              <button
                type="button"
                className={`diff-row diff-${row.status}${selected ? " current" : ""}${row.index === divergentAt ? " first-divergence" : ""}`}
                aria-current={selected ? "true" : undefined}
                data-index={row.index}
                data-status={row.status}
                onClick={() => onAt(row.index)}
              >
                <span className="seq">{row.index}</span>
                <span className={`diff-status status-word-${row.status}`}>{rowWord(row, lineage)}</span>
                <span className="kind">{row.kind}</span>
                <span className="title">{row.label}</span>
                {row.realigned ? <span className="realigned-mark">realigned</span> : null}
              </button>
            </div>
          );
        })}
      </div>
    </div>
  );
}
