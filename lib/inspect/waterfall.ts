/**
 * The waterfall of a run: one bar per model turn and per tool call, from its start to its end.
 * Pure, over the run's outline (whose entries carry the times, see outline.ts). Invariants:
 * - bars are ordered by start (then seq); two bars overlap in time only in different lanes, and
 *   each bar takes the lowest lane free at its start (sequential work stays in lane 0);
 * - the critical path is the chain that decides when the run ended: from the last bar to end,
 *   each step back takes the bar that ended last before the current one started;
 * - a window is a slice of bars by index, never the whole run, so an answer stays small whatever
 *   the run's size; sub-agent runs are other runs' waterfalls, fetched when a bar is expanded;
 * - a server lays bars out from numbers (bar-columns.ts, folded a page at a time in the pool) and
 *   names only the bars a window sends, from the run's packed outline.
 */
import type { OutlineEntry } from "./outline";
import { costOf, priceOf, type ModelPrice } from "../agent/pricing";
import { barColumnsOf, BAR_CRITICAL, BAR_FAILED, BAR_MODEL, BAR_TIMED, type BarColumns } from "./bar-columns";
import { sharedMemory } from "./packed";

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

/**
 * A waterfall laid out as columns, by bar index (bars in start order): what a worker builds from
 * a run's bar columns (bar-columns.ts) with no object per bar; waterfallView names its bars.
 */
export interface WaterfallLayout {
  originMs: number;
  spanMs: number;
  lanes: number;
  criticalMs: number;
  count: number;
  seqs: Int32Array;
  startMs: Float64Array;
  durationMs: Float64Array;
  laneOf: Int32Array;
  /** bar-columns.ts's BAR_* bits, BAR_CRITICAL set on the critical path. */
  flags: Uint8Array;
  indexBySeq: Int32Array;
}

/** Overlaps shorter than this are clock noise (an old run's times are inferred from write times), not parallel work. */
const TOLERANCE_MS = 1;

/** The chunks' bars end to end, in start (then seq) order. */
function sortedBars(chunks: readonly BarColumns[]): { seqs: Int32Array; starts: Float64Array; ends: Float64Array; flags: Uint8Array } {
  const count = chunks.reduce((sum, chunk) => sum + chunk.count, 0);
  const all = { seqs: new Int32Array(count), starts: new Float64Array(count), ends: new Float64Array(count), flags: new Uint8Array(count) };
  let at = 0;
  for (const chunk of chunks) {
    all.seqs.set(chunk.seqs.subarray(0, chunk.count), at);
    all.starts.set(chunk.starts.subarray(0, chunk.count), at);
    all.ends.set(chunk.ends.subarray(0, chunk.count), at);
    all.flags.set(chunk.flags.subarray(0, chunk.count), at);
    at += chunk.count;
  }
  const order = Array.from({ length: count }, (_, index) => index).sort((a, b) => all.starts[a]! - all.starts[b]! || all.seqs[a]! - all.seqs[b]!);
  const sorted = { seqs: new Int32Array(count), starts: new Float64Array(count), ends: new Float64Array(count), flags: new Uint8Array(count) };
  order.forEach((from, to) => {
    sorted.seqs[to] = all.seqs[from]!;
    sorted.starts[to] = all.starts[from]!;
    sorted.ends[to] = all.ends[from]!;
    sorted.flags[to] = all.flags[from]!;
  });
  return sorted;
}

/** Lowest free lane for each bar in start order: `laneEnds[l]` is when lane l's last bar ends. */
function assignLanes(starts: Float64Array, ends: Float64Array, laneOf: Int32Array): number {
  const laneEnds: number[] = [];
  for (let index = 0; index < starts.length; index += 1) {
    let lane = laneEnds.findIndex((end) => end <= starts[index]! + TOLERANCE_MS);
    if (lane < 0) lane = laneEnds.push(ends[index]!) - 1;
    else laneEnds[lane] = ends[index]!;
    laneOf[index] = lane;
  }
  return Math.max(1, laneEnds.length);
}

/** Marks the critical path (see the header) in `flags` and returns its total duration. */
function markCritical(bars: { seqs: Int32Array; starts: Float64Array; ends: Float64Array; flags: Uint8Array }): number {
  const { seqs, starts, ends, flags } = bars;
  if (seqs.length === 0) return 0;
  const byEnd = Array.from({ length: seqs.length }, (_, index) => index).sort((a, b) => ends[a]! - ends[b]! || seqs[a]! - seqs[b]!);
  const endsInOrder = byEnd.map((index) => ends[index]!);
  let position = byEnd.length - 1;
  let total = 0;
  while (position >= 0) {
    const index = byEnd[position]!;
    flags[index] = flags[index]! | BAR_CRITICAL;
    total += ends[index]! - starts[index]!;
    // The last position before this one whose bar ended by the time this one started.
    let low = 0;
    let high = position - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (endsInOrder[middle]! <= starts[index]! + TOLERANCE_MS) {
        found = middle;
        low = middle + 1;
      } else high = middle - 1;
    }
    position = found;
  }
  return total;
}

/** The layout of a run's bars (chunks in seq order) over `steps` records. */
export function layoutWaterfall(chunks: readonly BarColumns[], steps: number): WaterfallLayout {
  const bars = sortedBars(chunks);
  const count = bars.seqs.length;
  const laneOf = new Int32Array(sharedMemory(4 * count));
  const lanes = assignLanes(bars.starts, bars.ends, laneOf);
  const criticalMs = markCritical(bars);
  const originMs = count > 0 ? bars.starts[0]! : 0;
  const startMs = new Float64Array(sharedMemory(8 * count));
  const durationMs = new Float64Array(sharedMemory(8 * count));
  const indexBySeq = new Int32Array(sharedMemory(4 * steps)).fill(-1);
  let last = originMs;
  for (let index = 0; index < count; index += 1) {
    last = Math.max(last, bars.ends[index]!);
    startMs[index] = bars.starts[index]! - originMs;
    durationMs[index] = bars.ends[index]! - bars.starts[index]!;
    const seq = bars.seqs[index]!;
    if (seq < steps) indexBySeq[seq] = index;
  }
  const seqs = new Int32Array(sharedMemory(4 * count));
  seqs.set(bars.seqs);
  const flags = new Uint8Array(sharedMemory(count));
  flags.set(bars.flags);
  return { originMs, spanMs: last - originMs, lanes, criticalMs, count, seqs, startMs, durationMs, laneOf, flags, indexBySeq };
}

/** What waterfallWindow reads: the bars as an array, or named on demand from a layout. */
export interface WaterfallView extends Omit<Waterfall, "bars"> {
  bars: { readonly length: number; slice(from: number, to: number): WaterfallBar[] };
}

/** The outline entries by step, as a view of the run's outline gives them. */
export interface EntryAt {
  at(seq: number): OutlineEntry | undefined;
  /** Entries [from, to) in one decode, where the view can. */
  slice?(from: number, to: number): OutlineEntry[];
}

/**
 * The entries a window's bars name: bars in start order are nearly in seq order, so one decode of
 * the seq range serves them when it is not much wider than the window; else one entry a bar.
 */
function windowEntries(layout: WaterfallLayout, from: number, to: number, entries: EntryAt): EntryAt {
  let low = Infinity;
  let high = -1;
  for (let index = from; index < to; index += 1) {
    low = Math.min(low, layout.seqs[index]!);
    high = Math.max(high, layout.seqs[index]!);
  }
  if (!entries.slice || high < low || high - low > 4 * (to - from) + 64) return entries;
  const range = entries.slice(low, high + 1);
  return { at: (seq) => range[seq - low] };
}

/** Bar `index` of the layout, named and priced from its outline entry. */
function barAt(layout: WaterfallLayout, index: number, entries: EntryAt, prices: Record<string, ModelPrice>): WaterfallBar {
  const flags = layout.flags[index]!;
  const seq = layout.seqs[index]!;
  const entry = entries.at(seq);
  const bar: WaterfallBar = {
    seq,
    kind: flags & BAR_MODEL ? "model" : "tool",
    label: entry?.title ?? "",
    startMs: layout.startMs[index]!,
    durationMs: layout.durationMs[index]!,
    lane: layout.laneOf[index]!,
    failed: (flags & BAR_FAILED) !== 0,
    critical: (flags & BAR_CRITICAL) !== 0,
    timed: (flags & BAR_TIMED) !== 0,
  };
  const children = entry?.node?.childRunIds ?? [];
  if (children.length > 0) bar.childRunIds = children;
  if (flags & BAR_MODEL) {
    bar.model = entry?.model ?? "";
    bar.costUsd = entry ? costOf(priceOf(prices, entry.model), entry) : null;
  }
  return bar;
}

/** A layout read as a view: bars named from the run's outline (decoded a bar at a time) and priced from `prices`. */
export function waterfallView(layout: WaterfallLayout, entries: EntryAt, prices: Record<string, ModelPrice> = {}): WaterfallView {
  const { originMs, spanMs, lanes, criticalMs, indexBySeq, count } = layout;
  const bars = {
    length: count,
    slice(from: number, to: number): WaterfallBar[] {
      const [start, end] = [Math.max(0, from), Math.min(to, count)];
      const named: WaterfallBar[] = [];
      const near = windowEntries(layout, start, end, entries);
      for (let index = start; index < end; index += 1) named.push(barAt(layout, index, near, prices));
      return named;
    },
  };
  return { originMs, spanMs, lanes, criticalMs, indexBySeq, bars };
}

/** The waterfall of a run from its outline, with model turns priced from `prices`. */
export function waterfallOf(entries: readonly OutlineEntry[], prices: Record<string, ModelPrice> = {}): Waterfall {
  const bySeq = new Map(entries.map((entry) => [entry.seq, entry]));
  const layout = layoutWaterfall([barColumnsOf(entries)], entries.length);
  const view = waterfallView(layout, { at: (seq) => bySeq.get(seq) }, prices);
  return { ...view, bars: view.bars.slice(0, layout.count) };
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
