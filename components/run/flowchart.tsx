"use client";

/**
 * The run's flowchart, drawn by Mermaid in the browser (securityLevel "strict"; labels escaped by
 * lib/inspect). The text comes from lib/inspect/chart.ts: the whole flow for a small run, a
 * window of whole blocks around the cursor for a large one.
 *
 * Moving the cursor never redraws: Mermaid blocks the page for 4-10 ms a node, so the cursor's
 * node and the path so far are marked by toggling classes on the drawn SVG (the classes are
 * classDefs in the text, so their styles travel with a downloaded SVG). The chart is redrawn
 * only when the run grows, the theme changes, or the cursor leaves the drawn window (after the
 * scrubbing pauses).
 */
import { memo, useEffect, useId, useMemo, useRef, useState, type ReactNode, type RefObject } from "react";
import {
  chartItems,
  chartNodeId,
  chartSource,
  chartTarget,
  decorate,
  decoratedSource,
  edgeEnds,
  flowWindow,
  windowHolds,
  WINDOW_DEFAULTS,
  type ChartEnd,
  type ChartItem,
  type FlowWindow,
} from "@/lib/inspect/chart";
import type { FlowNode } from "@/lib/inspect/flow";
import { formatCount } from "@/lib/inspect/view";
import { CopyButton } from "../copy-button";
import { onThemeChange, resolvedTheme } from "../theme";
import { drawMermaid } from "./mermaid-draw";

export interface FlowchartProps {
  runId: string;
  nodes: readonly FlowNode[];
  end: ChartEnd;
  /** The cursor's node (-1: the start node). */
  nodeIndex: number;
  onStep: (seq: number) => void;
  onOpenRun: (runId: string) => void;
  /** The panel's heading (default "Flowchart"); pages with two charts name each. */
  title?: string;
  /** A node to mark as diverged (the diff page's first divergence), by index; -1 or absent: none. */
  marked?: number;
  /** Controls shown beside the heading (the run page's "Expanded | Aggregated" switch). */
  switcher?: ReactNode;
  /** A fork: nodes before its step were copied, the one at it may be edited, the rest ran live. */
  lineage?: { at: number; edited: boolean } | null;
}

/** Waits this long after the cursor leaves the drawn window before redrawing (scrubbing goes on). */
const REDRAW_DELAY_MS = 300;

type Mark = "current" | "past" | "edge-past";

interface Drawn {
  items: ChartItem[];
  nodes: Map<string, SVGGElement>;
  edges: Array<{ element: SVGElement; to: string }>;
}

export function useChartTheme(): "light" | "dark" {
  const [theme, setTheme] = useState<"light" | "dark">("light");
  useEffect(() => {
    const update = () => setTheme(resolvedTheme());
    update();
    return onThemeChange(update);
  }, []);
  return theme;
}

function useDrawnWindow(count: number, nodeIndex: number): FlowWindow {
  const wanted = flowWindow(count, nodeIndex);
  const whole = count <= WINDOW_DEFAULTS.fullLimit;
  const [windowed, setWindowed] = useState<FlowWindow>(wanted);
  const holds = windowHolds(windowed, nodeIndex) && windowed.end <= count;
  useEffect(() => {
    if (whole || holds) return;
    const timer = setTimeout(() => setWindowed(flowWindow(count, nodeIndex)), REDRAW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [whole, holds, count, nodeIndex]);
  return whole ? wanted : windowed;
}

interface Built {
  items: ChartItem[];
  source: string | null;
  error: string | null;
}

/** The chart's items and Mermaid text for the drawn window (the text fails past Mermaid's limits). */
function useChartSource(nodes: readonly FlowNode[], range: FlowWindow, end: ChartEnd): Built {
  return useMemo(() => {
    const items = chartItems(nodes, range);
    try {
      return { items, source: chartSource(items, { end }), error: null };
    } catch (error) {
      return { items, source: null, error: error instanceof Error ? error.message : String(error) };
    }
  }, [nodes, range, end]);
}

/**
 * Draws `built` into `container` with Mermaid (one render at a time, page-wide) whenever the text
 * or the theme changes: the drawn nodes and edges, or why it could not be drawn.
 */
function useMermaidSvg(container: RefObject<HTMLDivElement | null>, built: Built, theme: "light" | "dark") {
  const [drawn, setDrawn] = useState<Drawn | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    const { source, items } = built;
    if (!source) return;
    let cancelled = false;
    // Tests and benchmarks wait on this attribute; it is not React state, to avoid a render per draw.
    container.current?.setAttribute("data-drawing", "true");
    drawMermaid(source, theme, () => !cancelled)
      .then((result) => {
        if (!result || cancelled || !container.current) return;
        container.current.innerHTML = result.svg;
        setDrawn(index(container.current, items));
        // Visible in the browser's performance panel (and read by bench/ui.ts).
        performance.measure("backtrack:flowchart", { start: result.started, end: performance.now(), detail: { nodes: items.length } });
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
  }, [container, built, theme]);
  return { drawn, failure };
}

/**
 * Marks the cursor's node and the path so far on the drawn chart. Only elements whose mark
 * changes are touched: a step changes two or three, and each class change costs a style pass.
 */
function useCursorMarks(container: RefObject<HTMLDivElement | null>, drawn: Drawn | null, nodeIndex: number) {
  const marks = useRef(new Map<Element, Mark>());
  useEffect(() => {
    if (!drawn) return;
    const decoration = decorate(drawn.items, nodeIndex);
    const wanted = new Map<Element, Mark>();
    for (const id of decoration.past) {
      const element = drawn.nodes.get(id);
      if (element) wanted.set(element, "past");
    }
    const current = drawn.nodes.get(decoration.current);
    if (current) wanted.set(current, "current");
    const reached = new Set([...decoration.past, decoration.current]);
    for (const edge of drawn.edges) if (reached.has(edge.to)) wanted.set(edge.element, "edge-past");
    for (const [element, mark] of marks.current) {
      if (wanted.get(element) === mark) continue;
      element.classList.remove(mark);
      if (mark === "current") element.setAttribute("tabindex", "-1");
    }
    for (const [element, mark] of wanted) {
      if (marks.current.get(element) === mark) continue;
      element.classList.add(mark);
      if (mark === "current") element.setAttribute("tabindex", "0");
    }
    marks.current = wanted;
    if (!current) return;
    // After the frame that shows the new cursor: scrolling needs a layout, which can wait a frame.
    let idle = 0;
    const frame = requestAnimationFrame(() => {
      idle = window.setTimeout(() => keepInView(container.current, current), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(idle);
    };
  }, [container, drawn, nodeIndex]);
}

/** The diverged mark is a class on the drawn node too (styled by the diff page), kept apart from the cursor's. */
function useDivergedMark(drawn: Drawn | null, marked: number) {
  useEffect(() => {
    const element = drawn && marked >= 0 ? drawn.nodes.get(`n${marked}`) : undefined;
    if (!element) return;
    element.classList.add("diverged");
    element.setAttribute("data-diverged", "true");
    return () => {
      element.classList.remove("diverged");
      element.removeAttribute("data-diverged");
    };
  }, [drawn, marked]);
}

const LINEAGE_MARKS = ["lineage-copied", "lineage-edited", "lineage-live"];

/** A fork's nodes: copied (before its step), edited (at it, when edited) or live, as a class and data-lineage. */
function useLineageMarks(drawn: Drawn | null, nodes: readonly FlowNode[], lineage: FlowchartProps["lineage"]) {
  const at = lineage?.at ?? -1;
  const edited = lineage?.edited === true;
  useEffect(() => {
    if (!drawn || at < 0) return;
    const touched: Element[] = [];
    for (const [id, element] of drawn.nodes) {
      const node = /^n\d+$/.test(id) ? nodes[Number(id.slice(1))] : undefined;
      if (!node) continue;
      const mark = node.seq < at ? "copied" : node.seq === at && edited ? "edited" : "live";
      element.classList.add(`lineage-${mark}`);
      element.setAttribute("data-lineage", mark);
      touched.push(element);
    }
    return () => {
      for (const element of touched) {
        element.classList.remove(...LINEAGE_MARKS);
        element.removeAttribute("data-lineage");
      }
    };
  }, [drawn, nodes, at, edited]);
}

/** Saves the drawn SVG as a file named after the run and the cursor's step. */
function downloadSvg(container: HTMLElement | null, fileName: string) {
  const svg = container?.querySelector("svg");
  if (!svg) return;
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(svg)}`;
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1_000);
}

/** Memoised: a step that stays on the same node (an attempt, a signal) does not render it again. */
export const Flowchart = memo(function Flowchart({ runId, nodes, end, nodeIndex, onStep, onOpenRun, title = "Flowchart", marked = -1, switcher, lineage = null }: FlowchartProps) {
  const container = useRef<HTMLDivElement>(null);
  const headingId = useId();
  const theme = useChartTheme();
  const drawnWindow = useDrawnWindow(nodes.length, nodeIndex);
  // By value: a new object with the same bounds must not redraw the chart.
  const { start, end: stop } = drawnWindow;
  const range = useMemo(() => ({ start, end: stop }), [start, stop]);
  const built = useChartSource(nodes, range, end);
  const { drawn, failure } = useMermaidSvg(container, built, theme);
  useCursorMarks(container, drawn, nodeIndex);
  useDivergedMark(drawn, marked);
  useLineageMarks(drawn, nodes, lineage);

  const act = (target: EventTarget | null) => {
    const element = target instanceof Element ? target.closest("g.node") : null;
    const id = element ? chartNodeId(element.id) : undefined;
    const action = id ? chartTarget(id, nodes) : undefined;
    if (action?.type === "step") onStep(action.seq);
    else if (action?.type === "run") onOpenRun(action.runId);
    return action !== undefined;
  };
  const download = () => downloadSvg(container.current, `${runId.replace(/[^A-Za-z0-9._-]+/g, "_")}-step-${nodes[nodeIndex]?.seq ?? 0}.svg`);

  const error = built.error ?? failure;
  const partial = nodes.length > WINDOW_DEFAULTS.fullLimit;
  return (
    <section className="panel chart-panel" aria-labelledby={headingId}>
      <div className="toolbar">
        <h2 id={headingId}>{title}</h2>
        {switcher}
        <span className="top-spacer" />
        <CopyButton label="Copy Mermaid source" text={() => decoratedSource(built.items, nodeIndex, { end })} disabled={!built.source} />
        <button type="button" onClick={download} disabled={!drawn}>
          Download SVG
        </button>
      </div>
      {partial ? (
        <p className="notice">
          {formatCount(nodes.length)} nodes: showing nodes {formatCount(range.start + 1)}–{formatCount(range.end)} around the cursor; the rest are collapsed.
          {windowHolds(range, nodeIndex) ? "" : " Drawing the steps around the cursor…"}
        </p>
      ) : null}
      {error ? <p className="error-box">The flowchart could not be drawn: {error}</p> : null}
      {lineage ? (
        <p className="muted lineage-legend" data-testid="lineage-legend">
          <span className="legend-copied">dashed: copied</span> · <span className="legend-edited">orange: edited</span> · solid: live
        </p>
      ) : null}
      <div
        ref={container}
        className="chart"
        data-testid="flowchart"
        data-view="expanded"
        role="figure"
        aria-label={`Flowchart of run ${runId}`}
        onClick={(event) => act(event.target)}
        onKeyDown={(event) => {
          if ((event.key === "Enter" || event.key === " ") && act(event.target)) event.preventDefault();
        }}
      />
    </section>
  );
});

/** Finds the drawn nodes and edges, and makes the ones that lead somewhere reachable by keyboard. */
function index(root: HTMLElement, items: readonly ChartItem[]): Drawn {
  const nodes = new Map<string, SVGGElement>();
  const labels = new Map<string, string>();
  for (const item of items) {
    if (item.type === "gap") {
      labels.set(item.id, `Show the ${formatCount(item.count)} collapsed steps`);
      continue;
    }
    labels.set(`n${item.index}`, `Go to step ${item.node.seq}: ${item.node.label}`);
    item.node.childRunIds.forEach((runId, k) => labels.set(`c${item.index}k${k}`, `Open sub-agent run ${runId}`));
  }
  labels.set("start", "Go to the start of the run");
  for (const element of root.querySelectorAll<SVGGElement>("g.node")) {
    const id = chartNodeId(element.id);
    if (!id) continue;
    nodes.set(id, element);
    if (id !== "done") element.classList.add("clickable");
    const label = labels.get(id);
    if (!label) continue;
    element.setAttribute("role", id.startsWith("c") ? "link" : "button");
    element.setAttribute("aria-label", label);
    // Step nodes are reached through the timeline (and the current one by Tab); gaps and sub-agent runs by Tab.
    element.setAttribute("tabindex", id.startsWith("gap") || id.startsWith("c") ? "0" : "-1");
  }
  const edges: Drawn["edges"] = [];
  for (const element of root.querySelectorAll<SVGElement>("[data-id^='L_']")) {
    const ends = edgeEnds(element.getAttribute("data-id") ?? "");
    if (ends) edges.push({ element, to: ends.to });
  }
  return { items: [...items], nodes, edges };
}

/** Scrolls the chart (only the chart, not the page) so that `element` is visible. */
function keepInView(scroller: HTMLElement | null, element: Element) {
  if (!scroller) return;
  const box = element.getBoundingClientRect();
  const view = scroller.getBoundingClientRect();
  if (box.top < view.top) scroller.scrollTop -= view.top - box.top + 24;
  else if (box.bottom > view.bottom) scroller.scrollTop += box.bottom - view.bottom + 24;
  if (box.left < view.left) scroller.scrollLeft -= view.left - box.left + 24;
  else if (box.right > view.right) scroller.scrollLeft += box.right - view.right + 24;
}
