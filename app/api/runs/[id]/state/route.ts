import { z } from "zod";
import { json, notFound, parseQuery, route } from "@/app/_server/http";
import { getStore } from "@/app/_server/store";
import { wholeNumber } from "@/app/_server/url-input";
import { stateAt } from "@/lib/inspect/timeline";

export const dynamic = "force-dynamic";

const query = z.object({ at: wholeNumber(0).optional() });

/** The run as it was at step `at` (default: its last step): the same projection the page shows. */
export const GET = route<{ id: string }>(async (request, { id }) => {
  const { at } = parseQuery(request, query);
  const store = await getStore();
  const run = await store.run(id);
  if (!run) return notFound(`no run with id "${id}"`);
  const step = Math.min(at ?? run.lastSeq, run.lastSeq);
  const records = await store.history(id, { limit: step + 1 });
  return json({ run, state: stateAt(records, step, run) });
});
