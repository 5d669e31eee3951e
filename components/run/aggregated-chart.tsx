"use client";

/**
 * The run's shape: one node per distinct step with counted edges (lib/inspect/aggregate.ts),
 * folded by the server (`/api/runs/{id}/aggregate`), so a big run's shape is drawn without
 * loading the run. The node of the cursor's step is marked by toggling a class on the drawn SVG
 * (moving the cursor never redraws); clicking a node lists its steps, with the previous and next
 * occurrence around the cursor. Labels are escaped by lib/inspect, as in the expanded chart.
 */
import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useRef, useState, type ReactNode, type RefObject } from "react";
import { aggregateNodeId, aggregateText, aggregateSource, aggregateStep, type AggregateGraph, type AggregateNode } from "@/lib/inspect/aggregate";
import { chartNodeId, type ChartEnd } from "@/lib/inspect/chart";
import type { OutlineEntry } from "@/lib/inspect/outline";
import { formatCount } from "@/lib/inspect/view";
import { getJson } from "../api";
import { CopyButton } from "../copy-button";
import { useChartTheme } from "./flowchart";
import { drawMermaid } from "./mermaid-draw";
import { runPath } from "./outline-pages";

const END_LABEL: Record<ChartEnd, string> = { complete: "done", running: "running…", paused: "paused", failed: "failed ✗" };
/** Occurrences listed under a selected node. */
const LISTED = 12;

export interface AggregatedChartProps {
  runId: string;
  /** Changes when the run grows: the shape is fetched again. */
  lastSeq: number;
  end: ChartEnd;
  /** The run's outline when loaded (occurrences of a node come from it), else null. */
  entries: readonly OutlineEntry[] | null;
  /** The step of the cursor's node: the key of the last drawn step at or before the cursor. */
  currentKey: string | undefined;
  at: number;
  onStep: (seq: number) => void;
  switcher?: ReactNode;
  /** Called after each draw (the page then loads what waited for the chart). */
  onDrawn?: () => void;
}

/** The key of the last drawn step at or before `at` (aggregate.ts's mapping), or undefined before the first. */
export function stepKeyAt(entries: readonly OutlineEntry[], at: number): string | undefined {
  for (let seq = Math.min(at, entries.length - 1); seq >= 0; seq -= 1) {
    const step = aggregateStep(entries[seq]!);
    if (step) return step.key;
  }
  return undefined;
}

/** The steps (seqs) drawn as `node`, ascending. */
function occurrencesOf(graph: AggregateGraph, node: AggregateNode, entries: readonly OutlineEntry[]): number[] {
  const seqs: number[] = [];
  for (const entry of entries) {
    const step = aggregateStep(entry);
    if (step && aggregateNodeId(graph, step.key) === node.id) seqs.push(entry.seq);
  }
  return seqs;
}

function useDrawnShape(container: RefObject<HTMLDivElement | null>, source: string | null, theme: "light" | "dark") {
  const [drawn, setDrawn] = useState<Map<string, SVGGElement> | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    if (!source) return;
    let cancelled = false;
    container.current?.setAttribute("data-drawing", "true");
    drawMermaid(source, theme, () => !cancelled)
      .then((result) => {
        if (!result || cancelled || !container.current) return;
        container.current.innerHTML = result.svg;
        const nodes = new Map<string, SVGGElement>();
        for (const element of container.current.querySelectorAll<SVGGElement>("g.node")) {
          const id = chartNodeId(element.id);
          if (id) nodes.set(id, element);
        }
        setDrawn(nodes);
        setFailure(null);
      })
      .catch((error: unknown) => {
        if (!cancelled) setFailure(error instanceof Error ? error.message : String(error));
      })
      .finally(() => {
        if (!cancelled) container.current?.setAttribute("data-drawing", "false");
      });
    return () => {
      cancelled = true;
    };
  }, [container, source, theme]);
  return { drawn, failure };
}

export function AggregatedChart({ runId, lastSeq, end, entries, currentKey, at, onStep, switcher, onDrawn }: AggregatedChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const headingId = useId();
  const theme = useChartTheme();
  const query = useQuery({
    queryKey: ["aggregate", runId, lastSeq],
    queryFn: () => getJson<{ graph: AggregateGraph }>(`${runPath(runId)}/aggregate`).then((body) => body.graph),
    staleTime: Infinity,
    placeholderData: (previous) => previous,
  });
  const graph = query.data;
  const source = useMemo(() => (graph ? aggregateSource(graph, { classes: true, end: END_LABEL[end] }) : null), [graph, end]);
  const { drawn, failure } = useDrawnShape(container, source, theme);
  const drawnOrFailed = drawn !== null || failure !== null || query.error !== null;
  useEffect(() => {
    if (drawnOrFailed) onDrawn?.();
  }, [drawnOrFailed, onDrawn]);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const currentId = graph && currentKey !== undefined ? aggregateNodeId(graph, currentKey) : "start";

  // Names and keyboard access for the drawn nodes (after each draw).
  useEffect(() => {
    if (!drawn || !graph) return;
    for (const node of graph.nodes) {
      const element = drawn.get(node.id);
      if (!element) continue;
      element.classList.add("clickable");
      element.setAttribute("role", "button");
      element.setAttribute("tabindex", "0");
      element.setAttribute("aria-label", `Steps of ${node.label} (${formatCount(node.count)})`);
    }
  }, [drawn, graph]);

  // The cursor's node: one class toggled, never a redraw.
  useEffect(() => {
    const element = drawn && currentId ? drawn.get(currentId) : undefined;
    if (!element) return;
    element.classList.add("current");
    element.setAttribute("aria-current", "step");
    return () => {
      element.classList.remove("current");
      element.removeAttribute("aria-current");
    };
  }, [drawn, currentId]);

  const select = (target: EventTarget | null) => {
    const element = target instanceof Element ? target.closest("g.node") : null;
    const id = element ? chartNodeId(element.id) : undefined;
    if (!id || !graph?.nodes.some((node) => node.id === id)) return false;
    setSelectedId(id);
    return true;
  };
  const selected = graph?.nodes.find((node) => node.id === selectedId);
  const error = query.error?.message ?? failure;
  return (
    <section className="panel chart-panel" aria-labelledby={headingId}>
      <div className="toolbar">
        <h2 id={headingId}>Flowchart</h2>
        {switcher}
        <span className="top-spacer" />
        <CopyButton label="Copy Mermaid source" text={() => (graph ? aggregateSource(graph) : "")} disabled={!graph} />
      </div>
      {graph && (graph.folded > 0 || graph.droppedEdges > 0) ? (
        <p className="notice">
          {graph.folded > 0 ? `The ${formatCount(graph.folded)} rarest steps are folded into one node. ` : ""}
          {graph.droppedEdges > 0 ? `${formatCount(graph.droppedEdges)} rare transitions are left out.` : ""}
        </p>
      ) : null}
      {error ? <p className="error-box">The flowchart could not be drawn: {error}</p> : null}
      {!graph && !error ? <p className="muted">Folding the run…</p> : null}
      <div
        ref={container}
        className="chart"
        data-testid="flowchart"
        data-view="aggregated"
        role="figure"
        aria-label={`Aggregated flowchart of run ${runId}`}
        onClick={(event) => select(event.target)}
        onKeyDown={(event) => {
          if ((event.key === "Enter" || event.key === " ") && select(event.target)) event.preventDefault();
        }}
      />
      {selected ? <NodeSteps graph={graph!} node={selected} entries={entries} at={at} onStep={onStep} onClose={() => setSelectedId(null)} /> : null}
    </section>
  );
}

/** A selected node's steps: its count, the previous and next occurrence around the cursor, and a few steps to jump to. */
function NodeSteps({
  graph,
  node,
  entries,
  at,
  onStep,
  onClose,
}: {
  graph: AggregateGraph;
  node: AggregateNode;
  entries: readonly OutlineEntry[] | null;
  at: number;
  onStep: (seq: number) => void;
  onClose: () => void;
}) {
  const seqs = useMemo(() => (entries ? occurrencesOf(graph, node, entries) : null), [graph, node, entries]);
  const previous = seqs ? [...seqs].reverse().find((seq) => seq < at) : undefined;
  const next = seqs?.find((seq) => seq > at);
  const position = seqs ? seqs.filter((seq) => seq <= at).length : 0;
  const from = Math.max(0, position - LISTED / 2);
  return (
    <div className="node-steps" role="region" aria-label={`Steps of ${node.label}`}>
      <div className="toolbar">
        <strong className="mono">{aggregateText(node)}</strong>
        <span className="top-spacer" />
        <button type="button" onClick={() => previous !== undefined && onStep(previous)} disabled={previous === undefined}>
          Previous occurrence
        </button>
        <button type="button" onClick={() => next !== undefined && onStep(next)} disabled={next === undefined}>
          Next occurrence
        </button>
        <button type="button" onClick={onClose} aria-label="Close the steps list">
          ×
        </button>
      </div>
      {seqs ? (
        <>
          <p className="muted">
            {seqs.includes(at)
              ? `Step ${at} is occurrence ${formatCount(position)} of ${formatCount(seqs.length)}.`
              : `${formatCount(seqs.length)} steps; ${formatCount(position)} before the cursor.`}
          </p>
          <ol className="node-step-list">
            {seqs.slice(from, from + LISTED).map((seq) => (
              <li key={seq}>
                <button type="button" className={seq === at ? "current" : undefined} aria-current={seq === at ? "step" : undefined} onClick={() => onStep(seq)}>
                  step {seq}
                </button>
              </li>
            ))}
          </ol>
        </>
      ) : (
        <p className="muted">Loading the run&apos;s steps…</p>
      )}
    </div>
  );
}
