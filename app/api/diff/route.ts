import { z } from "zod";
import { cachedDiff } from "@/app/_server/diffs";
import { diffQuery, diffWindow } from "@/app/_server/diff-window";
import { json, parseQuery, route } from "@/app/_server/http";
import { wholeNumber } from "@/app/_server/url-input";

export const dynamic = "force-dynamic";

const query = z.object({
  a: z.string().min(1).max(256),
  b: z.string().min(1).max(256),
  realign: z.enum(["0", "1", "true", "false"]).optional(),
  from: wholeNumber(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

/**
 * GET /api/diff?a=&b=[&realign=1][&from=&limit=] → the RunDiff of two runs (404 when either is
 * unknown) with a window of its entries in `steps`: `limit` from `from`, within the response
 * budget. `stepsFrom`, `stepsTotal`, `nextFrom` and `next` (an /api/diff/entries link) page the rest.
 */
export const GET = route(async (request) => {
  const { a, b, realign, from, limit } = parseQuery(request, query);
  const aligned = realign === "1" || realign === "true";
  const { diff } = await cachedDiff(a, b, aligned);
  const { entries, nextFrom } = diffWindow(diff, from, limit);
  return json({
    ...diff.head,
    steps: entries,
    stepsFrom: from,
    stepsTotal: diff.entries.count,
    nextFrom,
    next: nextFrom === null ? null : `/api/diff/entries?${diffQuery(a, b, aligned, nextFrom, limit)}`,
  });
});
