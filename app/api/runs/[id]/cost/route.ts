import { json, notFound, route } from "@/app/_server/http";
import { getStore } from "@/app/_server/store";
import { runCostOf } from "@/app/_server/waterfalls";

export const dynamic = "force-dynamic";

/**
 * What the run's model turns cost: `costUsd` (null when any turn's model has no price), by model
 * with each model's price, and the price table used (its version, source and date).
 */
export const GET = route<{ id: string }>(async (_request, { id }) => {
  const run = await (await getStore()).run(id);
  if (!run) return notFound(`no run with id "${id}"`);
  const cost = await runCostOf(id, run);
  if (!cost) return notFound(`no run with id "${id}"`);
  return json({ runId: id, ...cost });
});
