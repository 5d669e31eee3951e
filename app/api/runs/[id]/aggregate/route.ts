import { json, notFound, route } from "@/app/_server/http";
import { runOutline } from "@/app/_server/outlines";
import { redacted } from "@/app/_server/redaction";
import { getStore } from "@/app/_server/store";
import { aggregateOutline } from "@/lib/inspect/aggregate";

export const dynamic = "force-dynamic";

/**
 * The run's shape (lib/inspect/aggregate.ts): `{ run, graph: { nodes, edges, folded, droppedEdges } }`,
 * folded on the server from its cached outline so that the page draws a big run's shape without
 * loading the run. Bounded: at most 60 nodes and 300 edges whatever the run holds.
 */
export const GET = route<{ id: string }>(async (_request, { id }) => {
  const run = await (await getStore()).run(id);
  if (!run) return notFound(`no run with id "${id}"`);
  const entries = (await runOutline(id, run)) ?? [];
  return json(redacted({ run, graph: aggregateOutline(entries.slice(0, run.lastSeq + 1)) }));
});
