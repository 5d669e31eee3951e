/**
 * The waterfall's view arithmetic, kept apart from React so it stays small and checkable: which
 * row shows what (the run's bars, with expanded sub-agent runs' bars right after the call that
 * started them) and the horizontal viewport (zoom and pan, in milliseconds per pixel).
 */

/** An expanded sub-agent run: its bars follow the parent's bar `after` (a bar index). */
export interface Expansion {
  runId: string;
  after: number;
  /** How many of its bars are shown (its first page). */
  count: number;
}

export type Row = { type: "bar"; index: number } | { type: "child"; runId: string; index: number };

/** Rows in all: the run's bars plus every expansion's. */
export function rowCount(total: number, expansions: readonly Expansion[]): number {
  return expansions.reduce((sum, expansion) => sum + expansion.count, total);
}

/** What row `row` shows; `expansions` sorted by `after`. */
export function rowAt(row: number, expansions: readonly Expansion[]): Row {
  let offset = 0;
  for (const expansion of expansions) {
    const first = expansion.after + 1 + offset;
    if (row < first) break;
    if (row < first + expansion.count) return { type: "child", runId: expansion.runId, index: row - first };
    offset += expansion.count;
  }
  return { type: "bar", index: row - offset };
}

/** The row that shows the run's bar `index`. */
export function rowOfBar(index: number, expansions: readonly Expansion[]): number {
  let offset = 0;
  for (const expansion of expansions) {
    if (expansion.after < index) offset += expansion.count;
  }
  return index + offset;
}

/** The run's bar index a row range starts and ends in (for fetching pages). */
export function barRange(firstRow: number, lastRow: number, expansions: readonly Expansion[]): { first: number; last: number } {
  const start = rowAt(firstRow, expansions);
  const end = rowAt(lastRow, expansions);
  const barOf = (row: Row, fallback: number) => (row.type === "bar" ? row.index : (expansions.find((expansion) => expansion.runId === row.runId)?.after ?? fallback));
  return { first: barOf(start, 0), last: barOf(end, 0) };
}

export interface Viewport {
  /** Milliseconds shown per pixel of the track. */
  msPerPx: number;
  /** Milliseconds from the origin at the track's left edge. */
  offsetMs: number;
}

/** The smallest zoom: the whole span in the track (at least 1 ms, so an instant run still draws). */
export function fitViewport(spanMs: number, trackPx: number): Viewport {
  return { msPerPx: Math.max(spanMs, 1) / Math.max(trackPx, 1), offsetMs: 0 };
}

/** Keeps the viewport within the span: no zooming out past the whole run, no panning off its ends. */
export function clampViewport(view: Viewport, spanMs: number, trackPx: number): Viewport {
  const fit = fitViewport(spanMs, trackPx).msPerPx;
  const msPerPx = Math.min(fit, Math.max(view.msPerPx, 0.001));
  const visible = msPerPx * trackPx;
  const offsetMs = Math.min(Math.max(0, view.offsetMs), Math.max(0, Math.max(spanMs, 1) - visible));
  return { msPerPx, offsetMs };
}

/** Zoom by `factor` (2: in, 0.5: out) keeping the time under pixel `anchorPx` where it is. */
export function zoomViewport(view: Viewport, factor: number, anchorPx: number, spanMs: number, trackPx: number): Viewport {
  const anchorMs = view.offsetMs + anchorPx * view.msPerPx;
  const msPerPx = view.msPerPx / factor;
  return clampViewport({ msPerPx, offsetMs: anchorMs - anchorPx * msPerPx }, spanMs, trackPx);
}

/** Pan by `px` pixels (positive: later). */
export function panViewport(view: Viewport, px: number, spanMs: number, trackPx: number): Viewport {
  return clampViewport({ ...view, offsetMs: view.offsetMs + px * view.msPerPx }, spanMs, trackPx);
}

/** A view that shows `[startMs, endMs]`, moving only when it is not already in view. */
export function revealSpan(view: Viewport, startMs: number, endMs: number, spanMs: number, trackPx: number): Viewport {
  const visible = view.msPerPx * trackPx;
  if (startMs >= view.offsetMs && endMs <= view.offsetMs + visible) return view;
  return clampViewport({ ...view, offsetMs: startMs - visible / 3 }, spanMs, trackPx);
}
