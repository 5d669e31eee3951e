/**
 * The inspector's flowchart: the run's flow (flow.ts, the nodes renderMermaid draws) as Mermaid
 * text that a browser can afford to draw. Pure, so that the page, the API and tests agree.
 *
 * Mermaid's limits are real (measured here: 4-10 ms of blocked main thread per node; it refuses
 * more than `maxEdges` edges, 500 by default; over `maxTextSize` it silently draws an error
 * chart; about 1,600 nodes overflow its layout's stack). So a run of more than `fullLimit` nodes
 * is drawn as a window of whole blocks around the cursor, with the rest collapsed into
 * "… N steps …" nodes, and a chart never holds more than MAX_CHART_NODES nodes.
 *
 * Node ids: n<i> (the flow node's index in the whole run, stable across windows), gap<a>t<b>
 * (collapsed nodes a…b), c<i>k<k> (sub-agent runs of node i), start, done. None holds "_", so a
 * Mermaid edge id L_<from>_<to>_<n> splits back into its ends (edgeEnds).
 */
import type { FlowNode } from "./flow";
import type { Indexed } from "./timeline";
import { escapeLabel, nodeLabel } from "./mermaid";

interface WindowOptions {
  /** Runs with at most this many nodes are drawn whole. */
  fullLimit: number;
  /** Nodes per block; a window is `blocks` whole blocks, so it moves only when the cursor crosses one. */
  block: number;
  blocks: number;
}

// Sized for Mermaid's cost: about 90 nodes take 0.4 s to draw on a quiet laptop, 1.5 s on a busy
// two-core machine, and the page is frozen meanwhile.
export const WINDOW_DEFAULTS: WindowOptions = { fullLimit: 120, block: 30, blocks: 3 };

/** Never hand Mermaid more than this many nodes (children and gaps included). */
export const MAX_CHART_NODES = 400;
/** The maxTextSize the inspector configures Mermaid with; chartSource refuses to exceed it. */
export const MAX_CHART_TEXT = 200_000;
/** Labels longer than this are cut in the chart (the detail panel shows them whole). */
const MAX_CHART_LABEL = 60;
/** Sub-agent runs drawn per tool node; more are summarised in one node. */
const MAX_CHILDREN_PER_NODE = 4;

/** Node indexes [start, end) drawn in full. */
export interface FlowWindow {
  start: number;
  end: number;
}

/** The window of nodes to draw for a cursor on node `cursor` (-1: the start node). */
export function flowWindow(nodeCount: number, cursor: number, options: WindowOptions = WINDOW_DEFAULTS): FlowWindow {
  if (nodeCount <= options.fullLimit) return { start: 0, end: nodeCount };
  const size = options.block * options.blocks;
  const block = Math.floor(Math.max(0, Math.min(cursor, nodeCount - 1)) / options.block);
  let start = Math.max(0, (block - Math.floor(options.blocks / 2)) * options.block);
  const end = Math.min(nodeCount, start + size);
  start = Math.max(0, end - size);
  return { start, end };
}

/** Whether node `cursor` (-1: start) is drawn in full in `window`. */
export function windowHolds(window: FlowWindow, cursor: number): boolean {
  return cursor < 0 ? window.start === 0 : cursor >= window.start && cursor < window.end;
}

export type ChartItem =
  { type: "node"; index: number; node: FlowNode } | { type: "gap"; id: string; count: number; firstIndex: number; lastIndex: number; fromSeq: number; toSeq: number };

function gapId(firstIndex: number, lastIndex: number): string {
  return `gap${firstIndex}t${lastIndex}`;
}

/** The window's nodes, with the nodes before and after it collapsed into one gap each. */
export function chartItems(nodes: Indexed<FlowNode>, window: FlowWindow): ChartItem[] {
  const items: ChartItem[] = [];
  const gap = (first: number, last: number): ChartItem => ({
    type: "gap",
    id: gapId(first, last),
    count: last - first + 1,
    firstIndex: first,
    lastIndex: last,
    fromSeq: nodes.at(first)!.seq,
    toSeq: nodes.at(last)!.seq,
  });
  const start = Math.max(0, window.start);
  const end = Math.min(nodes.length, window.end);
  if (start > 0) items.push(gap(0, start - 1));
  for (let index = start; index < end; index += 1) items.push({ type: "node", index, node: nodes.at(index)! });
  if (end < nodes.length) items.push(gap(end, nodes.length - 1));
  return items;
}

/** How the chart ends: the seed's done([done]) for a complete run, otherwise what the run is doing. */
export type ChartEnd = "complete" | "running" | "paused" | "failed";

const END_LABEL: Record<ChartEnd, string> = { complete: "done", running: "running…", paused: "paused", failed: "failed ✗" };

interface ChartOptions {
  end: ChartEnd;
  maxLabel?: number;
  /** Draw sub-agent runs as linked nodes (default true). */
  children?: boolean;
}

/** Class definitions the inspector toggles on drawn nodes; Mermaid embeds their styles in the SVG. */
const CHART_CLASSES = [
  "classDef current fill:#ffd666,stroke:#b8860b,stroke-width:3px,color:#1a1a1a",
  "classDef past stroke:#2f5bd3,stroke-width:2px",
  "classDef failed stroke:#c62828,stroke-width:2px",
  "classDef gap fill:transparent,stroke-dasharray:4 3,color:#777",
  "classDef child fill:#eef3ff,stroke:#2f5bd3,stroke-dasharray:2 2,color:#1a1a1a",
];

function cut(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

function thousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

export class ChartTooLargeError extends Error {
  constructor(
    readonly what: string,
    readonly size: number,
    readonly limit: number,
  ) {
    super(`the chart has ${thousands(size)} ${what}, over Mermaid's safe limit of ${thousands(limit)}`);
  }
}

/** Mermaid text of the chart items. Throws ChartTooLargeError rather than hand Mermaid more than it can draw. */
export function chartSource(items: readonly ChartItem[], options: ChartOptions): string {
  const maxLabel = options.maxLabel ?? MAX_CHART_LABEL;
  const lines = ["flowchart TD", ...CHART_CLASSES.map((line) => `  ${line}`), "  start([user])"];
  let previous = "start";
  let drawn = 2;
  for (const item of items) {
    if (item.type === "gap") {
      lines.push(`  ${item.id}{{"… ${thousands(item.count)} step${item.count === 1 ? "" : "s"} …"}}`, `  class ${item.id} gap`, `  ${previous} --> ${item.id}`);
      previous = item.id;
      drawn += 1;
      continue;
    }
    const { node, index } = item;
    const id = `n${index}`;
    lines.push(`  ${id}["${nodeLabel({ label: cut(node.label, maxLabel) })}"]`, `  ${previous} --> ${id}`);
    if (node.failed) lines.push(`  class ${id} failed`);
    drawn += 1;
    if (options.children !== false && node.childRunIds.length > 0) {
      const shown = node.childRunIds.slice(0, MAX_CHILDREN_PER_NODE);
      shown.forEach((childRunId, k) => {
        lines.push(`  c${index}k${k}[["sub-agent run: ${escapeLabel(cut(childRunId, maxLabel))}"]]`, `  class c${index}k${k} child`, `  ${id} -.-> c${index}k${k}`);
      });
      const more = node.childRunIds.length - shown.length;
      if (more > 0)
        lines.push(`  c${index}k${shown.length}[["… ${more} more sub-agent runs"]]`, `  class c${index}k${shown.length} child`, `  ${id} -.-> c${index}k${shown.length}`);
      drawn += shown.length + (more > 0 ? 1 : 0);
    }
    previous = id;
  }
  lines.push(`  ${previous} --> done([${escapeLabel(END_LABEL[options.end])}])`);
  if (drawn > MAX_CHART_NODES) throw new ChartTooLargeError("nodes", drawn, MAX_CHART_NODES);
  const text = lines.join("\n");
  if (text.length > MAX_CHART_TEXT) throw new ChartTooLargeError("characters", text.length, MAX_CHART_TEXT);
  return text;
}

/** Which drawn nodes to mark for a cursor on node `nodeIndex` (-1: start): the current one and the path so far. */
interface Decoration {
  current: string;
  past: string[];
}

export function decorate(items: readonly ChartItem[], nodeIndex: number): Decoration {
  if (nodeIndex < 0) return { current: "start", past: [] };
  const past = ["start"];
  let current = "start";
  for (const item of items) {
    if (item.type === "gap") {
      if (item.lastIndex < nodeIndex) past.push(item.id);
      else if (item.firstIndex <= nodeIndex) current = item.id;
      continue;
    }
    if (item.index < nodeIndex) past.push(`n${item.index}`);
    else if (item.index === nodeIndex) current = `n${item.index}`;
  }
  return { current, past: past.filter((id) => id !== current) };
}

/** The decoration as Mermaid statements (for the copied source; the page toggles the same classes). */
function decorationLines(decoration: Decoration): string[] {
  const lines: string[] = [];
  if (decoration.past.length > 0) lines.push(`  class ${decoration.past.join(",")} past`);
  lines.push(`  class ${decoration.current} current`);
  return lines;
}

/** The chart source with the cursor's decoration, as "Copy Mermaid source" gives it. */
export function decoratedSource(items: readonly ChartItem[], nodeIndex: number, options: ChartOptions): string {
  return [chartSource(items, options), ...decorationLines(decorate(items, nodeIndex))].join("\n");
}

/** The two ends of a Mermaid edge id (L_<from>_<to>_<n>), or undefined for another id. */
export function edgeEnds(edgeId: string): { from: string; to: string } | undefined {
  const match = /^L_([A-Za-z0-9]+)_([A-Za-z0-9]+)_\d+$/.exec(edgeId);
  return match ? { from: match[1]!, to: match[2]! } : undefined;
}

/** The chart node id inside a Mermaid node element id (<svgId>-flowchart-<node>-<n>), or undefined. */
export function chartNodeId(elementId: string): string | undefined {
  return /-flowchart-([A-Za-z0-9]+)-\d+$/.exec(elementId)?.[1];
}

/** What a click on a chart node means: a step to move the cursor to, or a run to open. */
type ChartTarget = { type: "step"; seq: number } | { type: "run"; runId: string } | undefined;

export function chartTarget(id: string, nodes: readonly FlowNode[]): ChartTarget {
  const node = /^n(\d+)$/.exec(id);
  if (node) {
    const found = nodes[Number(node[1])];
    return found ? { type: "step", seq: found.seq } : undefined;
  }
  const gap = /^gap(\d+)t(\d+)$/.exec(id);
  if (gap) {
    // The hidden node next to the drawn window: the gap's last before it, its first after it.
    const first = Number(gap[1]);
    const target = nodes[first === 0 ? Number(gap[2]) : first];
    return target ? { type: "step", seq: target.seq } : undefined;
  }
  const child = /^c(\d+)k(\d+)$/.exec(id);
  if (child) {
    const runId = nodes[Number(child[1])]?.childRunIds[Number(child[2])];
    return runId ? { type: "run", runId } : undefined;
  }
  if (id === "start") return { type: "step", seq: 0 };
  return undefined;
}
