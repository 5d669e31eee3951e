import { z } from "zod";
import { json, notFound, parseQuery, route } from "@/app/_server/http";
import { searchRun } from "@/app/_server/search";
import { getStore } from "@/app/_server/store";
import { queryText, wholeNumber } from "@/app/_server/url-input";
import { countWithin, jsonBytes, RESPONSE_BUDGET_BYTES } from "@/lib/inspect/budget";
import { MAX_QUERY_LENGTH, parseSearchQuery, SEARCH_PAGE } from "@/lib/inspect/search";

export const dynamic = "force-dynamic";

const query = z.object({
  q: queryText(MAX_QUERY_LENGTH),
  cursor: wholeNumber(0).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(SEARCH_PAGE),
});

/**
 * Searches the run's redacted records for `q` (a case-insensitive substring, or `/regex/`):
 * `{ query, regex, total, seqs, seqsTruncated, hits, nextCursor }`. `seqs` holds every hit's seq
 * (at most 100,000, a few hundred kilobytes); `hits` one page of hits with excerpts, after
 * `cursor` (a seq) when given. A bad query is a 400 `bad_input`.
 */
export const GET = route<{ id: string }>(async (request, { id }) => {
  const { q, cursor, limit } = parseQuery(request, query);
  const matcher = parseSearchQuery(q);
  const run = await (await getStore()).run(id);
  if (!run) return notFound(`no run with id "${id}"`);
  const result = await searchRun(run, matcher.query, { cursor, limit });
  // The shared response budget: excerpts are short, but a page of them never pushes the answer past it.
  const fit = countWithin(result.hits, RESPONSE_BUDGET_BYTES - jsonBytes(result.seqs));
  if (fit < result.hits.length) Object.assign(result, { hits: result.hits.slice(0, fit), nextCursor: result.hits[fit - 1]!.seq });
  return json(result);
});
