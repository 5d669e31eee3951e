/**
 * Drawing Mermaid text into an SVG string, shared by the expanded and the aggregated flowcharts.
 * Invariants: Mermaid keeps global state, so renders run one at a time page-wide (a queue); it is
 * configured `securityLevel: "strict"` (labels are escaped by lib/inspect too); and an error chart
 * Mermaid draws past its limits is refused, never shown as the run.
 */
import { MAX_CHART_TEXT } from "@/lib/inspect/chart";

let renders = 0;
let mermaidModule: Promise<typeof import("mermaid")> | null = null;

/** Mermaid is large: it is fetched once, starting as soon as this module runs in a browser. */
function loadMermaid() {
  mermaidModule ??= import("mermaid");
  return mermaidModule;
}
if (typeof window !== "undefined") void loadMermaid();
let queue: Promise<unknown> = Promise.resolve();

/**
 * The SVG of `source`, drawn after every render queued before it. `stillWanted` is asked when its
 * turn comes: a draw nobody waits for any more is skipped (resolves undefined).
 */
export function drawMermaid(source: string, theme: "light" | "dark", stillWanted: () => boolean): Promise<{ svg: string; started: number } | undefined> {
  const drawn = queue.then(async () => {
    if (!stillWanted()) return undefined;
    const mermaid = (await loadMermaid()).default;
    const started = performance.now();
    mermaid.initialize({ startOnLoad: false, securityLevel: "strict", theme: theme === "dark" ? "dark" : "default", maxTextSize: MAX_CHART_TEXT, maxEdges: 1_000 });
    renders += 1;
    const { svg } = await mermaid.render(`chart-${renders}`, source);
    // Over its limits Mermaid draws an error chart instead of failing: never show one as the run.
    if (svg.includes('aria-roledescription="error"') || /Syntax error in text|Maximum text size/.test(svg)) throw new Error("Mermaid could not draw this chart");
    return { svg, started };
  });
  queue = drawn.catch(() => undefined);
  return drawn;
}
