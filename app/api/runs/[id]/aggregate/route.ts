import { json, notFound, route } from "@/app/_server/http";
import { redacted } from "@/app/_server/redaction";
import { getStore } from "@/app/_server/store";
import { runAggregate } from "@/app/_server/waterfalls";

export const dynamic = "force-dynamic";

/**
 * The run's shape (lib/inspect/aggregate.ts): `{ run, graph: { nodes, edges, folded, droppedEdges } }`,
 * folded in the projection pool from the run's outline so that the page draws a big run's shape without
 * loading the run. Bounded: at most 60 nodes and 300 edges whatever the run holds.
 */
export const GET = route<{ id: string }>(async (_request, { id }) => {
  const run = await (await getStore()).run(id);
  if (!run) return notFound(`no run with id "${id}"`);
  const graph = await runAggregate(id, run);
  if (!graph) return notFound(`no run with id "${id}"`);
  return json(redacted({ run, graph }));
});
