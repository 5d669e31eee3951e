import { z } from "zod";
import { notFound, parseQuery, route } from "@/app/_server/http";
import { runTimeline } from "@/app/_server/outlines";
import { projectionPool } from "@/app/_server/pool";
import { runAggregate } from "@/app/_server/waterfalls";
import { serverSecretKeys } from "@/app/_server/redaction";
import { getStore } from "@/app/_server/store";
import { wholeNumber } from "@/app/_server/url-input";
import { aggregateSource } from "@/lib/inspect/aggregate";
import { chartItems, decoratedSource, flowWindow } from "@/lib/inspect/chart";
import { RESPONSE_BUDGET_BYTES } from "@/lib/inspect/budget";
import { maskSecretText } from "@/lib/inspect/redact";
import { summaryAt } from "@/lib/inspect/timeline";
import { chartEnd } from "@/lib/inspect/view";

export const dynamic = "force-dynamic";

const query = z.object({ at: wholeNumber(0).optional(), aggregate: z.enum(["0", "1", "true", "false"]).optional() });

/**
 * The run's Mermaid flowchart: without `at`, exactly renderMermaid's text (the seed's mapping);
 * with `at`, the inspector's chart at that step (windowed around it, highlighted); with
 * `aggregate=1`, renderMermaid's aggregated text (one node per distinct step, counted edges).
 */
export const GET = route<{ id: string }>(async (request, { id }) => {
  const { at, aggregate } = parseQuery(request, query);
  const store = await getStore();
  const run = await store.run(id);
  if (!run) return notFound(`no run with id "${id}"`);
  let text: string;
  if (aggregate === "1" || aggregate === "true") {
    const graph = await runAggregate(id, run);
    if (!graph) return notFound(`no run with id "${id}"`);
    text = aggregateSource(graph);
  } else if (at === undefined) {
    // Folded in the pool from the run's timeline (its nodes are buildFlow's): never the run read here.
    const timeline = await runTimeline(id, run);
    if (!timeline) return notFound(`no run with id "${id}"`);
    text = await projectionPool().run("mermaid", { nodes: [...timeline.nodeLists], limitBytes: RESPONSE_BUDGET_BYTES });
  } else {
    const timeline = await runTimeline(id, run);
    if (!timeline) return notFound(`no run with id "${id}"`);
    const summary = summaryAt(timeline, at, run);
    const items = chartItems(timeline.nodes, flowWindow(timeline.nodes.length, summary.nodeIndex));
    text = decoratedSource(items, summary.nodeIndex, { end: chartEnd(run.status) });
  }
  return new Response(maskSecretText(text, { isSecret: serverSecretKeys() }), { headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
});
