/**
 * The waterfall of a run: one bar per model turn and per tool call, from its start to its end.
 * Pure, over the run's outline (whose entries carry the times, see outline.ts). Invariants:
 * - bars are ordered by start (then seq); two bars overlap in time only in different lanes, and
 *   each bar takes the lowest lane free at its start (sequential work stays in lane 0);
 * - the critical path is the chain that decides when the run ended: from the last bar to end,
 *   each step back takes the bar that ended last before the current one started;
 * - a window is a slice of bars by index, never the whole run, so an answer stays small whatever
 *   the run's size; sub-agent runs are other runs' waterfalls, fetched when a bar is expanded.
 */
import type { OutlineEntry } from "./outline";
import { costOf, priceOf, type ModelPrice } from "../agent/pricing";
import { PackedItems, packList, type PackedList } from "./packed";

export type BarKind = "model" | "tool";

export interface WaterfallBar {
  seq: number;
  kind: BarKind;
  /** The record's one-line title ("LLM → checkAccount", "tool: checkAccount ✗"). */
  label: string;
  /** Milliseconds from the waterfall's origin (its first bar's start). */
  startMs: number;
  durationMs: number;
  lane: number;
  /** A failed tool call. */
  failed: boolean;
  /** On the critical path. */
  critical: boolean;
  /** Its start was journaled (startedAt); false when it is inferred from when the record was written. */
  timed: boolean;
  /** A tool call that ran sub-agents: their run ids. */
  childRunIds?: string[];
  /** Model turns: the model and what the turn cost (null: the model has no price). */
  model?: string;
  costUsd?: number | null;
}

export interface Waterfall {
  /** Epoch milliseconds of the first bar's start (every bar's startMs is relative to it). */
  originMs: number;
  /** Milliseconds from the origin to the last bar's end. */
  spanMs: number;
  lanes: number;
  bars: WaterfallBar[];
  /** Bar index by seq (-1: the record draws no bar). */
  indexBySeq: Int32Array;
  /** How long the critical path's bars take together. */
  criticalMs: number;
}

/** Overlaps shorter than this are clock noise (an old run's times are inferred from write times), not parallel work. */
const TOLERANCE_MS = 1;

function barOf(entry: OutlineEntry, prices: Record<string, ModelPrice>): (WaterfallBar & { start: number; end: number }) | undefined {
  if ((entry.kind !== "model" && entry.kind !== "tool_result") || entry.startMs === undefined || entry.endMs === undefined) return undefined;
  const bar: WaterfallBar & { start: number; end: number } = {
    seq: entry.seq,
    kind: entry.kind === "model" ? "model" : "tool",
    label: entry.title,
    start: entry.startMs,
    end: Math.max(entry.startMs, entry.endMs),
    startMs: 0,
    durationMs: Math.max(0, entry.endMs - entry.startMs),
    lane: 0,
    failed: entry.failed === true,
    critical: false,
    timed: entry.timed === true,
  };
  const children = entry.node?.childRunIds ?? [];
  if (children.length > 0) bar.childRunIds = children;
  if (entry.kind === "model") {
    bar.model = entry.model ?? "";
    bar.costUsd = costOf(priceOf(prices, entry.model), entry);
  }
  return bar;
}

/** Lowest free lane for each bar in start order: `laneEnds[l]` is when lane l's last bar ends. */
function assignLanes(bars: Array<WaterfallBar & { start: number; end: number }>): number {
  const laneEnds: number[] = [];
  for (const bar of bars) {
    let lane = laneEnds.findIndex((end) => end <= bar.start + TOLERANCE_MS);
    if (lane < 0) lane = laneEnds.push(bar.end) - 1;
    else laneEnds[lane] = bar.end;
    bar.lane = lane;
  }
  return Math.max(1, laneEnds.length);
}

/** Marks the critical path (see the header) and returns its total duration. */
function markCritical(bars: Array<WaterfallBar & { start: number; end: number }>): number {
  if (bars.length === 0) return 0;
  const byEnd = bars.map((_, index) => index).sort((a, b) => bars[a]!.end - bars[b]!.end || bars[a]!.seq - bars[b]!.seq);
  const ends = byEnd.map((index) => bars[index]!.end);
  let position = byEnd.length - 1;
  let total = 0;
  while (position >= 0) {
    const bar = bars[byEnd[position]!]!;
    bar.critical = true;
    total += bar.durationMs;
    // The last position before this one whose bar ended by the time this one started.
    let low = 0;
    let high = position - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (ends[middle]! <= bar.start + TOLERANCE_MS) {
        found = middle;
        low = middle + 1;
      } else high = middle - 1;
    }
    position = found;
  }
  return total;
}

/** The waterfall of a run from its outline, with model turns priced from `prices`. */
export function waterfallOf(entries: readonly OutlineEntry[], prices: Record<string, ModelPrice> = {}): Waterfall {
  const bars: Array<WaterfallBar & { start: number; end: number }> = [];
  for (const entry of entries) {
    const bar = barOf(entry, prices);
    if (bar) bars.push(bar);
  }
  bars.sort((a, b) => a.start - b.start || a.seq - b.seq);
  const lanes = assignLanes(bars);
  const criticalMs = markCritical(bars);
  const originMs = bars[0]?.start ?? 0;
  let last = originMs;
  const indexBySeq = new Int32Array(entries.length).fill(-1);
  const plain: WaterfallBar[] = bars.map((bar, index) => {
    last = Math.max(last, bar.end);
    if (bar.seq < indexBySeq.length) indexBySeq[bar.seq] = index;
    const { start, end: _end, ...rest } = bar;
    return { ...rest, startMs: start - originMs };
  });
  return { originMs, spanMs: last - originMs, lanes, bars: plain, indexBySeq, criticalMs };
}

/**
 * A waterfall as a server holds it: the bars packed (packed.ts), built in a worker thread and
 * windowed without an object per bar. waterfallWindow reads either form.
 */
export interface PackedWaterfall extends Omit<Waterfall, "bars"> {
  bars: PackedList;
}

export function packWaterfall(waterfall: Waterfall): PackedWaterfall {
  return { ...waterfall, bars: packList(waterfall.bars) };
}

/** What waterfallWindow reads: the bars as an array, or packed. */
export interface WaterfallView extends Omit<Waterfall, "bars"> {
  bars: { readonly length: number; slice(from: number, to: number): WaterfallBar[] };
}

/** A packed waterfall read as a view. */
export function waterfallView(packed: PackedWaterfall): WaterfallView {
  return { ...packed, bars: new PackedItems<WaterfallBar>([packed.bars]) };
}

/** The bar at step `seq`, or the nearest bar before it (the first bar when there is none). */
export function barIndexAt(waterfall: Pick<WaterfallView, "indexBySeq" | "bars">, seq: number): number {
  const { indexBySeq, bars } = waterfall;
  if (bars.length === 0) return -1;
  for (let at = Math.min(seq, indexBySeq.length - 1); at >= 0; at -= 1) {
    if (indexBySeq[at]! >= 0) return indexBySeq[at]!;
  }
  return 0;
}

export interface WaterfallWindow {
  originMs: number;
  spanMs: number;
  lanes: number;
  criticalMs: number;
  /** All bars of the run. */
  total: number;
  /** Index of this window's first bar. */
  from: number;
  bars: WaterfallBar[];
  /** The bar at the cursor (an index into the whole run's bars), or -1 without bars. */
  atBar: number;
}

/** At most `limit` bars: from `from`, or centred on the bar at step `at`. */
export function waterfallWindow(waterfall: WaterfallView, options: { from?: number; at?: number; limit: number }): WaterfallWindow {
  const total = waterfall.bars.length;
  const atBar = options.at === undefined ? -1 : barIndexAt(waterfall, options.at);
  const wanted = options.from ?? Math.max(0, atBar - Math.floor(options.limit / 2));
  const from = Math.max(0, Math.min(wanted, Math.max(0, total - 1)));
  const { originMs, spanMs, lanes, criticalMs } = waterfall;
  return { originMs, spanMs, lanes, criticalMs, total, from, bars: waterfall.bars.slice(from, from + options.limit), atBar };
}
