/**
 * The run's shape: its flow folded to one node per distinct step, with transition counts on the
 * edges, so a loop of 300 turns draws as a cycle of a few nodes, not a chain of 900.
 *   model                → LLM
 *   tool_result          → tool: <name>            (its failures counted on the node)
 *   approval             → approval                (denials counted as failures)
 *   value                → step: <name>            (run:complete included)
 *   sub-agent signal     → sub-agent: <agent>
 *   any other kind       → unknown: <kind>
 *   header, attempt, other signals → not drawn
 * Invariants: node and edge counts are bounded (MAX_AGGREGATE_NODES, MAX_AGGREGATE_EDGES) whatever
 * the run holds (rarer steps fold into one "other" node, lighter edges are left out and counted);
 * labels are escaped as in the expanded chart (mermaid.ts), so names stay inert. Pure.
 */
import { escapeLabel, nodeLabel } from "./labels";
import type { OutlineEntry } from "./outline";

export type AggregateKind = "model" | "tool" | "approval" | "step" | "subagent" | "unknown" | "other";

export interface AggregateNode {
  /** a0, a1, … in order of first appearance; `other` for the folded rest. */
  id: string;
  key: string;
  kind: AggregateKind;
  label: string;
  count: number;
  failed: number;
  firstSeq: number;
}

export interface AggregateEdge {
  /** Node ids, `start` and `done`. */
  from: string;
  to: string;
  count: number;
}

export interface AggregateGraph {
  nodes: AggregateNode[];
  edges: AggregateEdge[];
  /** Distinct steps folded into the `other` node (0: none). */
  folded: number;
  /** Transitions left out to keep the chart drawable (0: none). */
  droppedEdges: number;
}

export const MAX_AGGREGATE_NODES = 60;
export const MAX_AGGREGATE_EDGES = 300;
export const OTHER_NODE = "other";

/** The distinct step an outline entry belongs to, or undefined for a record that is not drawn. */
export function aggregateStep(entry: Pick<OutlineEntry, "node" | "signal" | "subAgent" | "failed">): { key: string; kind: AggregateKind; failed: boolean } | undefined {
  if (entry.signal === "subagent") return { key: `sub-agent: ${entry.subAgent ?? "?"}`, kind: "subagent", failed: false };
  const node = entry.node;
  if (!node) return undefined;
  switch (node.kind) {
    case "model":
      return { key: "LLM", kind: "model", failed: false };
    case "tool":
      return { key: node.label.replace(/ ✗$/, ""), kind: "tool", failed: node.failed };
    case "approval":
      return { key: "approval", kind: "approval", failed: node.failed };
    case "step":
    case "unknown":
      return { key: node.label, kind: node.kind, failed: node.failed };
  }
}

interface Tally {
  key: string;
  kind: AggregateKind;
  count: number;
  failed: number;
  firstSeq: number;
}

/** Folds a run's outline into its shape. `entries` in seq order. */
export function aggregateOutline(entries: readonly OutlineEntry[]): AggregateGraph {
  const tallies = new Map<string, Tally>();
  const path: Tally[] = [];
  for (const entry of entries) {
    const step = aggregateStep(entry);
    if (!step) continue;
    let tally = tallies.get(step.key);
    if (!tally) {
      tally = { key: step.key, kind: step.kind, count: 0, failed: 0, firstSeq: entry.seq };
      tallies.set(step.key, tally);
    }
    tally.count += 1;
    if (step.failed) tally.failed += 1;
    path.push(tally);
  }
  const kept = keptSteps([...tallies.values()]);
  const nodes: AggregateNode[] = [];
  const idOf = new Map<Tally, string>();
  const other: AggregateNode = { id: OTHER_NODE, key: OTHER_NODE, kind: "other", label: "", count: 0, failed: 0, firstSeq: Number.POSITIVE_INFINITY };
  for (const tally of tallies.values()) {
    if (kept.has(tally)) {
      const id = `a${nodes.length}`;
      idOf.set(tally, id);
      nodes.push({ id, key: tally.key, kind: tally.kind, label: tally.key, count: tally.count, failed: tally.failed, firstSeq: tally.firstSeq });
    } else {
      idOf.set(tally, OTHER_NODE);
      other.count += tally.count;
      other.failed += tally.failed;
      other.firstSeq = Math.min(other.firstSeq, tally.firstSeq);
    }
  }
  const folded = tallies.size - kept.size;
  if (folded > 0) nodes.push({ ...other, label: `… ${folded} other steps` });
  const { edges, droppedEdges } = transitions(path.map((tally) => idOf.get(tally)!));
  return { nodes, edges, folded, droppedEdges };
}

/** The steps drawn as their own node: all of them, or the most frequent when there are too many. */
function keptSteps(tallies: Tally[]): Set<Tally> {
  if (tallies.length <= MAX_AGGREGATE_NODES) return new Set(tallies);
  const byCount = [...tallies].sort((a, b) => b.count - a.count || a.firstSeq - b.firstSeq);
  return new Set(byCount.slice(0, MAX_AGGREGATE_NODES - 1));
}

/** Counted transitions along the path, from `start` to `done`; the heaviest MAX_AGGREGATE_EDGES kept. */
function transitions(ids: readonly string[]): { edges: AggregateEdge[]; droppedEdges: number } {
  const counts = new Map<string, AggregateEdge>();
  let previous = "start";
  for (const id of [...ids, "done"]) {
    const key = `${previous}>${id}`;
    const edge = counts.get(key);
    if (edge) edge.count += 1;
    else counts.set(key, { from: previous, to: id, count: 1 });
    previous = id;
  }
  const all = [...counts.values()];
  if (all.length <= MAX_AGGREGATE_EDGES) return { edges: all, droppedEdges: 0 };
  const heaviest = new Set([...all].sort((a, b) => b.count - a.count).slice(0, MAX_AGGREGATE_EDGES));
  return { edges: all.filter((edge) => heaviest.has(edge)), droppedEdges: all.length - heaviest.size };
}

/** The node id a step's key is drawn as (the `other` node for a folded step), or undefined. */
export function aggregateNodeId(graph: Pick<AggregateGraph, "nodes">, key: string): string | undefined {
  const node = graph.nodes.find((candidate) => candidate.key === key);
  return node?.id ?? (graph.nodes.some((candidate) => candidate.id === OTHER_NODE) ? OTHER_NODE : undefined);
}

function thousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function failures(node: AggregateNode): string {
  return node.failed > 0 ? ` (${thousands(node.failed)} ${node.kind === "approval" ? "denied" : "failed"})` : "";
}

/** `tool: checkAccount ×600 (2 failed)`, as text (for a page to show; React escapes it). */
export function aggregateText(node: AggregateNode): string {
  return `${node.label} ×${thousands(node.count)}${failures(node)}`;
}

/** Labels longer than this are cut in the chart (a tool name can be anything a model wrote). */
const MAX_LABEL = 80;

/** aggregateText escaped for a quoted Mermaid label, its name cut at MAX_LABEL characters. */
export function aggregateLabel(node: AggregateNode): string {
  const label = node.label.length > MAX_LABEL ? `${node.label.slice(0, MAX_LABEL - 1)}…` : node.label;
  return `${nodeLabel({ label })} ×${thousands(node.count)}${escapeLabel(failures(node))}`;
}

export interface AggregateSourceOptions {
  /** The end node's label (default "done"). */
  end?: string;
  /** Class definitions and classes for the inspector (the cursor's node, failures). */
  classes?: boolean;
}

const AGGREGATE_CLASSES = [
  "classDef current fill:#ffd666,stroke:#b8860b,stroke-width:3px,color:#1a1a1a",
  "classDef failed stroke:#c62828,stroke-width:2px",
  "classDef other fill:transparent,stroke-dasharray:4 3,color:#777",
];

/** Mermaid text of the run's shape: `flowchart TD`, `start([user])`, one node per step, `-->|×N|` edges, the end. */
export function aggregateSource(graph: AggregateGraph, options: AggregateSourceOptions = {}): string {
  const lines = ["flowchart TD", ...(options.classes ? AGGREGATE_CLASSES.map((line) => `  ${line}`) : []), "  start([user])"];
  for (const node of graph.nodes) {
    lines.push(`  ${node.id}["${aggregateLabel(node)}"]`);
    if (options.classes && node.failed > 0) lines.push(`  class ${node.id} failed`);
    if (options.classes && node.id === OTHER_NODE) lines.push(`  class ${node.id} other`);
  }
  lines.push(`  done([${escapeLabel(options.end ?? "done")}])`);
  for (const edge of graph.edges) lines.push(`  ${edge.from} -->|×${thousands(edge.count)}| ${edge.to}`);
  return lines.join("\n");
}
