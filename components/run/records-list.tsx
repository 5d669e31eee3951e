"use client";

/**
 * Every record of the run as a virtualised list (a 100,000-record run mounts only what shows),
 * narrowed by "Show" (`?show=errors` or `?show=kind:<kind>`) and with search hits marked.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useMemo, useRef } from "react";
import type { OutlineEntry } from "@/lib/inspect/outline";

const ROW_HEIGHT = 26;

export interface RecordsListProps {
  entries: readonly OutlineEntry[];
  at: number;
  onAt: (at: number) => void;
  /** Seqs of search hits. */
  hits?: ReadonlySet<number>;
  /** "errors", "kind:<kind>", or null for every record. */
  show: string | null;
  onShow: (show: string | null) => void;
}

function isError(entry: OutlineEntry): boolean {
  return entry.failed === true || entry.unknown === true;
}

/** The entries `show` keeps (all of them when it is null or unknown). */
export function shownEntries(entries: readonly OutlineEntry[], show: string | null): readonly OutlineEntry[] {
  if (show === "errors") return entries.filter(isError);
  if (show?.startsWith("kind:")) {
    const kind = show.slice("kind:".length);
    return entries.filter((entry) => entry.kind === kind);
  }
  return entries;
}

/** The index of the last entry at or before seq `at` (entries ascending by seq), or 0. */
function indexAtOrBefore(entries: readonly OutlineEntry[], at: number): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (entries[middle]!.seq <= at) low = middle + 1;
    else high = middle;
  }
  return Math.max(0, low - 1);
}

function ShowFilter({ entries, show, onShow }: Pick<RecordsListProps, "entries" | "show" | "onShow">) {
  const kinds = useMemo(() => [...new Set(entries.map((entry) => entry.kind))].sort(), [entries]);
  return (
    <label className="records-filter">
      Show{" "}
      <select aria-label="Show" value={show ?? ""} onChange={(event) => onShow(event.target.value || null)}>
        <option value="">all records</option>
        <option value="errors">errors only</option>
        {kinds.map((kind) => (
          <option key={kind} value={`kind:${kind}`}>
            kind: {kind}
          </option>
        ))}
      </select>
    </label>
  );
}

export function RecordsList({ entries, at, onAt, hits, show, onShow }: RecordsListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const shown = useMemo(() => shownEntries(entries, show), [entries, show]);
  // The virtualizer's functions are not memoisable: the React compiler leaves this component alone.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({ count: shown.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  // Keeps the cursor's row (or, when filtered out, the row before it) in view. Rows have a fixed
  // height and the virtualizer tracks the scroll position and the viewport, so nothing is read
  // from the layout; a row out of view is brought to the middle, so the next steps need no scrolling.
  useEffect(() => {
    const element = scroller.current;
    if (!element || shown.length === 0 || at >= entries.length) return;
    const top = (shown === entries ? at : indexAtOrBefore(shown, at)) * ROW_HEIGHT;
    const offset = virtualizer.scrollOffset ?? 0;
    const height = virtualizer.scrollRect?.height ?? 0;
    if (top < offset || top + ROW_HEIGHT > offset + height) element.scrollTop = Math.max(0, top - height / 2);
  }, [at, entries, shown, virtualizer]);
  const heading = shown === entries ? entries.length.toLocaleString("en-US") : `${shown.length.toLocaleString("en-US")} of ${entries.length.toLocaleString("en-US")}`;
  return (
    <section className="panel" aria-labelledby="records-heading">
      <div className="toolbar">
        <h2 id="records-heading">Records ({heading})</h2>
        <span className="top-spacer" />
        <ShowFilter entries={entries} show={show} onShow={onShow} />
      </div>
      <div ref={scroller} className="records-list" data-testid="records-list">
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualizer.getVirtualItems().map((item) => {
            const entry = shown[item.index]!;
            const place = entry.seq === at ? "current" : entry.seq < at ? "past" : "future";
            const hit = hits?.has(entry.seq) === true;
            return (
              <button
                key={item.key}
                type="button"
                className={`record-row ${place}${entry.failed || entry.unknown ? " failed" : ""}${hit ? " hit" : ""}`}
                style={{ position: "absolute", top: 0, left: 0, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
                aria-current={place === "current" ? "step" : undefined}
                data-hit={hit ? "true" : undefined}
                onClick={() => onAt(entry.seq)}
              >
                <span className="seq">{entry.seq}</span>
                <span className="kind">{entry.kind}</span>
                <span className="title">{entry.title}</span>
                {hit ? (
                  <span className="hit-mark" title="search match">
                    ●<span className="visually-hidden"> match</span>
                  </span>
                ) : null}
              </button>
            );
          })}
        </div>
      </div>
      {shown.length === 0 ? <p className="muted">No records to show.</p> : null}
    </section>
  );
}
