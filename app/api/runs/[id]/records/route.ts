import { z } from "zod";
import { json, notFound, parseQuery, route } from "@/app/_server/http";
import { getStore } from "@/app/_server/store";
import { wholeNumber } from "@/app/_server/url-input";

export const dynamic = "force-dynamic";

const query = z.object({
  from: wholeNumber(0).default(0),
  limit: z.coerce.number().int().min(1).max(5000).default(500),
});

export const GET = route<{ id: string }>(async (request, { id }) => {
  const parsed = parseQuery(request, query);
  const store = await getStore();
  const run = await store.run(id);
  if (!run) return notFound(`no run with id "${id}"`);
  const records = await store.history(id, parsed);
  const next = parsed.from + records.length;
  return json({ records, nextFrom: next <= run.lastSeq ? next : null });
});
