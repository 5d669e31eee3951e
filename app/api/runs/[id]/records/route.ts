import { z } from "zod";
import { json, notFound, parseQuery, route } from "@/app/_server/http";
import { getStore } from "@/app/_server/store";
import { wholeNumber } from "@/app/_server/url-input";
import { recordsWithin } from "@/app/_server/windows";

export const dynamic = "force-dynamic";

const query = z.object({
  from: wholeNumber(0).default(0),
  limit: z.coerce.number().int().min(1).max(5000).default(500),
});

/**
 * GET /api/runs/{id}/records?from=&limit= → `{ records, nextFrom, next }`: up to `limit` records from
 * seq `from`, secrets redacted, cut short where they would pass the response budget (lib/inspect/budget.ts);
 * `nextFrom` and `next` continue after the last one (null at the end).
 */
export const GET = route<{ id: string }>(async (request, { id }) => {
  const parsed = parseQuery(request, query);
  const store = await getStore();
  const run = await store.run(id);
  if (!run) return notFound(`no run with id "${id}"`);
  const records = await recordsWithin(store, id, parsed.from, parsed.limit);
  const nextFrom = parsed.from + records.length;
  const more = records.length > 0 && nextFrom <= run.lastSeq;
  return json({
    records,
    nextFrom: more ? nextFrom : null,
    next: more ? `/api/runs/${encodeURIComponent(id)}/records?from=${nextFrom}&limit=${parsed.limit}` : null,
  });
});
