import { z } from "zod";
import { cachedDiff } from "@/app/_server/diffs";
import { diffQuery, diffWindow } from "@/app/_server/diff-window";
import { json, parseQuery, route } from "@/app/_server/http";
import { wholeNumber } from "@/app/_server/url-input";

export const dynamic = "force-dynamic";

const MAX_LIMIT = 1_000;

const query = z.object({
  a: z.string().min(1).max(256),
  b: z.string().min(1).max(256),
  realign: z.enum(["0", "1", "true", "false"]).optional(),
  from: wholeNumber(0).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(100),
});

/**
 * GET /api/diff/entries?a=&b=&from=&limit=[&realign=1] → `{ entries, total, nextFrom, next }`: the
 * RunDiff's entries from index `from`, secrets redacted, within the response budget (the diff page
 * fetches the detail around its cursor a page at a time).
 */
export const GET = route(async (request) => {
  const { a, b, realign, from, limit } = parseQuery(request, query);
  const aligned = realign === "1" || realign === "true";
  const { diff } = await cachedDiff(a, b, aligned);
  const { entries, nextFrom } = diffWindow(diff, from, limit);
  return json({ entries, total: diff.entries.count, nextFrom, next: nextFrom === null ? null : `/api/diff/entries?${diffQuery(a, b, aligned, nextFrom, limit)}` });
});
