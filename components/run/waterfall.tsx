"use client";

/**
 * The Waterfall tab: one row per model turn and tool call (lib/inspect/waterfall.ts), its bar from
 * start to end on a shared time axis, coloured by kind and outcome, the critical path outlined.
 * Rows are virtualised (only those on screen are in the document) and their bars come in pages
 * around what is on screen, so a 100,000-record run scrolls. Zoom and pan: the buttons, + − 0 and
 * Shift+←/→ on the focused chart, Ctrl+wheel and dragging with the mouse. Clicking a bar moves the
 * cursor; the cursor's bar is kept in view. A call that ran sub-agents expands their bars beneath it.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent, type RefObject, type WheelEvent } from "react";
import { formatUsd } from "@/lib/agent/pricing";
import { formatCount, formatDuration } from "@/lib/inspect/view";
import type { WaterfallBar } from "@/lib/inspect/waterfall";
import { useChildWaterfalls, useWaterfallBars, useWaterfallMeta, WATERFALL_PAGE, type WaterfallAnswer } from "./use-waterfall";
import { barRange, clampViewport, fitViewport, panViewport, revealSpan, rowAt, rowCount, rowOfBar, zoomViewport, type Expansion, type Viewport } from "./waterfall-view";

const ROW_HEIGHT = 24;
const LABEL_PX = 160;
/** A pan step: a quarter of the track. */
const PAN_FRACTION = 0.25;

export interface WaterfallProps {
  runId: string;
  at: number;
  lastSeq: number;
  onAt: (seq: number) => void;
  onOpenRun: (runId: string) => void;
}

function barClass(bar: WaterfallBar, current: boolean): string {
  const kind = bar.kind === "model" ? "wf-model" : bar.failed ? "wf-failed" : "wf-tool";
  return `wf-bar ${kind}${bar.critical ? " wf-critical" : ""}${current ? " wf-current" : ""}${bar.timed ? "" : " wf-inferred"}`;
}

function describe(bar: WaterfallBar): string {
  const cost = bar.kind === "model" ? `, cost ${formatUsd(bar.costUsd)}` : "";
  const lane = bar.lane > 0 ? `, parallel lane ${bar.lane + 1}` : "";
  return `Go to step ${bar.seq}: ${bar.label}, ${formatDuration(bar.durationMs)}${cost}${lane}${bar.critical ? ", on the critical path" : ""}`;
}

/** Track width in pixels, followed as the panel resizes. */
function useTrackWidth(element: RefObject<HTMLDivElement | null>): number {
  const [width, setWidth] = useState(600);
  useLayoutEffect(() => {
    const node = element.current;
    if (!node) return;
    const measure = () => setWidth(Math.max(100, node.clientWidth - LABEL_PX - 16));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(node);
    return () => observer.disconnect();
  }, [element]);
  return width;
}

interface RowProps {
  bar: WaterfallBar | undefined;
  /** Milliseconds between this row's run's origin and the waterfall's. */
  shiftMs: number;
  depth: number;
  view: Viewport;
  trackPx: number;
  current: boolean;
  expanded: boolean | undefined;
  onAt?: (seq: number) => void;
  onToggle?: () => void;
  onOpenRun: (runId: string) => void;
  runId: string;
}

function BarRow({ bar, shiftMs, depth, view, trackPx, current, expanded, onAt, onToggle, onOpenRun, runId }: RowProps) {
  if (!bar) return <div className="wf-label muted">…</div>;
  const left = (bar.startMs + shiftMs - view.offsetMs) / view.msPerPx;
  const width = Math.max(2, bar.durationMs / view.msPerPx);
  const off = left + width < 0 ? "before" : left > trackPx ? "after" : null;
  const act = () => (onAt ? onAt(bar.seq) : onOpenRun(runId));
  return (
    <>
      <div className="wf-label" style={{ paddingLeft: 4 + depth * 16 }} title={bar.label}>
        {onToggle ? (
          <button
            type="button"
            className="link wf-toggle"
            aria-expanded={expanded}
            aria-label={`${expanded ? "Collapse" : "Expand"} sub-agent runs of step ${bar.seq}`}
            onClick={onToggle}
          >
            {expanded ? "▾" : "▸"}
          </button>
        ) : null}
        <span className="mono">#{bar.seq}</span> {bar.label}
      </div>
      <div className="wf-track">
        {off ? (
          <span className={`wf-off wf-off-${off}`} aria-hidden="true">
            {off === "before" ? "◂" : "▸"}
          </span>
        ) : (
          <button
            type="button"
            className={barClass(bar, current)}
            style={{ left: Math.max(-2, left), width: Math.min(width, trackPx + 4) }}
            aria-label={onAt ? describe(bar) : `Open sub-agent run ${runId} at step ${bar.seq}: ${bar.label}`}
            aria-current={current ? "step" : undefined}
            onClick={act}
          />
        )}
        <span className="wf-duration muted" style={{ left: Math.min(trackPx - 60, Math.max(0, left + width + 4)) }}>
          {formatDuration(bar.durationMs)}
        </span>
      </div>
    </>
  );
}

/** Zoom, pan and fit: buttons, keys and the mouse. */
function useViewport(spanMs: number, trackPx: number) {
  const [view, setView] = useState<Viewport | null>(null);
  const current = clampViewport(view ?? fitViewport(spanMs, trackPx), spanMs, trackPx);
  const zoom = useCallback(
    (factor: number, anchorPx = trackPx / 2) => setView((before) => zoomViewport(before ?? fitViewport(spanMs, trackPx), factor, anchorPx, spanMs, trackPx)),
    [spanMs, trackPx],
  );
  const pan = useCallback((px: number) => setView((before) => panViewport(before ?? fitViewport(spanMs, trackPx), px, spanMs, trackPx)), [spanMs, trackPx]);
  const fit = useCallback(() => setView(null), []);
  const reveal = useCallback((startMs: number, endMs: number) => setView((before) => (before ? revealSpan(before, startMs, endMs, spanMs, trackPx) : before)), [spanMs, trackPx]);
  return { view: current, zoom, pan, fit, reveal, zoomed: view !== null };
}

function Legend() {
  return (
    <p className="wf-legend muted" aria-label="Legend">
      <span className="wf-swatch wf-model" /> model turn <span className="wf-swatch wf-tool" /> tool call <span className="wf-swatch wf-failed" /> failed call{" "}
      <span className="wf-swatch wf-critical" /> critical path
    </p>
  );
}

export function Waterfall({ runId, at, lastSeq, onAt, onOpenRun }: WaterfallProps) {
  const headingId = useId();
  const scroller = useRef<HTMLDivElement>(null);
  const trackPx = useTrackWidth(scroller);
  const meta = useWaterfallMeta(runId, at, lastSeq);
  const info: WaterfallAnswer | undefined = meta.data;
  const total = info?.total ?? 0;
  const spanMs = info?.spanMs ?? 0;
  const { view, zoom, pan, fit, reveal, zoomed } = useViewport(spanMs, trackPx);

  const [expansions, setExpansions] = useState<Expansion[]>([]);
  const children = useChildWaterfalls(useMemo(() => expansions.map((expansion) => expansion.runId), [expansions]));
  // An expansion's row count follows what its run's first page holds.
  const shown = useMemo(() => expansions.map((expansion) => ({ ...expansion, count: children.get(expansion.runId)?.data?.bars.length ?? 0 })), [expansions, children]);
  const toggle = (bar: WaterfallBar, index: number) =>
    setExpansions((before) => {
      const ids = bar.childRunIds ?? [];
      if (before.some((expansion) => ids.includes(expansion.runId))) return before.filter((expansion) => !ids.includes(expansion.runId));
      return [...before, ...ids.map((runId) => ({ runId, after: index, count: 0 }))].sort((a, b) => a.after - b.after);
    });

  const rows = rowCount(total, shown);
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({ count: rows, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const items = virtualizer.getVirtualItems();
  const range = barRange(items[0]?.index ?? 0, items.at(-1)?.index ?? 0, shown);
  const bars = useWaterfallBars(runId, range.first - 1, range.last + 1, total);

  // Keep the cursor's bar in view: its row vertically, its span horizontally (when zoomed in).
  const atBar = info?.atBar ?? -1;
  const cursorBar = info?.bars[0];
  useEffect(() => {
    if (atBar < 0) return;
    const row = rowOfBar(atBar, shown);
    const [first, last] = [virtualizer.range?.startIndex ?? -1, virtualizer.range?.endIndex ?? -1];
    if (row < first + 1 || row > last - 1) virtualizer.scrollToIndex(row, { align: "center" });
    if (cursorBar) reveal(cursorBar.startMs, cursorBar.startMs + cursorBar.durationMs);
    // Only when the cursor's bar changes, not on every scroll.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [atBar, cursorBar?.seq]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const handled = new Map<string, () => void>([
      ["+", () => zoom(2)],
      ["=", () => zoom(2)],
      ["-", () => zoom(0.5)],
      ["0", fit],
    ]);
    if (event.shiftKey && event.key === "ArrowLeft") handled.set("ArrowLeft", () => pan(-trackPx * PAN_FRACTION));
    if (event.shiftKey && event.key === "ArrowRight") handled.set("ArrowRight", () => pan(trackPx * PAN_FRACTION));
    const action = handled.get(event.key);
    if (!action) return;
    event.preventDefault();
    action();
  };
  const onWheel = (event: WheelEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    if (event.ctrlKey || event.metaKey) zoom(event.deltaY < 0 ? 1.25 : 0.8, event.clientX - box.left - LABEL_PX);
    else if (event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY)) pan(event.shiftKey ? event.deltaY : event.deltaX);
  };
  const drag = useRef<{ x: number } | null>(null);
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0 || (event.target as Element).closest("button")) return;
    drag.current = { x: event.clientX };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    pan(drag.current.x - event.clientX);
    drag.current = { x: event.clientX };
  };

  const drawn = total > 0 && items.some((item) => rowAt(item.index, shown).type === "bar" && bars.bar(rowAt(item.index, shown).index) !== undefined);
  return (
    <section className="panel chart-panel waterfall-panel" aria-labelledby={headingId}>
      <div className="toolbar">
        <h2 id={headingId}>Waterfall</h2>
        <span className="top-spacer" />
        <button type="button" onClick={() => zoom(2)}>
          Zoom in
        </button>
        <button type="button" onClick={() => zoom(0.5)} disabled={!zoomed}>
          Zoom out
        </button>
        <button type="button" onClick={() => pan(-trackPx * PAN_FRACTION)} disabled={!zoomed}>
          Pan left
        </button>
        <button type="button" onClick={() => pan(trackPx * PAN_FRACTION)} disabled={!zoomed}>
          Pan right
        </button>
        <button type="button" onClick={fit} disabled={!zoomed}>
          Fit
        </button>
      </div>
      {info ? (
        <p className="muted" data-testid="waterfall-facts">
          {formatCount(total)} bars · {info.lanes > 1 ? `${info.lanes} parallel lanes · ` : ""}
          {formatDuration(spanMs)} from first to last · critical path {formatDuration(info.criticalMs)} · showing {formatDuration(view.msPerPx * trackPx)} from +
          {formatDuration(view.offsetMs)}
          {total > WATERFALL_PAGE ? " · bars load as you scroll" : ""}
        </p>
      ) : meta.error ? (
        <p className="error-box">The waterfall could not be loaded: {meta.error.message}</p>
      ) : (
        <p className="muted">Loading the waterfall…</p>
      )}
      <Legend />
      {bars.error ? <p className="error-box">Some bars could not be loaded: {bars.error.message}</p> : null}
      {info && total === 0 ? <p className="muted">No model turns or tool calls yet.</p> : null}
      <div
        ref={scroller}
        className="waterfall"
        data-testid="waterfall"
        data-drawn={drawn ? "true" : "false"}
        role="group"
        aria-label={`Waterfall of run ${runId}`}
        aria-roledescription="waterfall chart"
        aria-keyshortcuts="+ - 0 Shift+ArrowLeft Shift+ArrowRight"
        tabIndex={0}
        onKeyDown={onKeyDown}
        onWheel={onWheel}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={() => (drag.current = null)}
        onPointerLeave={() => (drag.current = null)}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {items.map((item) => {
            const row = rowAt(item.index, shown);
            const style = { position: "absolute" as const, top: 0, left: 0, width: "100%", height: ROW_HEIGHT, transform: `translateY(${item.start}px)` };
            if (row.type === "child") {
              const child = children.get(row.runId)?.data;
              const shift = child && info ? child.originMs - info.originMs : 0;
              return (
                <div key={`${row.runId}:${row.index}`} className="wf-row wf-child" style={style}>
                  <BarRow
                    bar={child?.bars[row.index]}
                    shiftMs={shift}
                    depth={1}
                    view={view}
                    trackPx={trackPx}
                    current={false}
                    expanded={undefined}
                    onOpenRun={onOpenRun}
                    runId={row.runId}
                  />
                </div>
              );
            }
            const bar = bars.bar(row.index);
            const hasChildren = (bar?.childRunIds?.length ?? 0) > 0;
            return (
              <div key={item.index} className="wf-row" style={style}>
                <BarRow
                  bar={bar}
                  shiftMs={0}
                  depth={0}
                  view={view}
                  trackPx={trackPx}
                  current={row.index === atBar}
                  expanded={hasChildren ? expansions.some((expansion) => bar!.childRunIds!.includes(expansion.runId)) : undefined}
                  onAt={onAt}
                  onToggle={hasChildren && bar ? () => toggle(bar, row.index) : undefined}
                  onOpenRun={onOpenRun}
                  runId={runId}
                />
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}
