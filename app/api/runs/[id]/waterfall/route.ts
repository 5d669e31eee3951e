import { z } from "zod";
import { json, notFound, parseQuery, route } from "@/app/_server/http";
import { redacted } from "@/app/_server/redaction";
import { getStore } from "@/app/_server/store";
import { wholeNumber } from "@/app/_server/url-input";
import { runWaterfall } from "@/app/_server/waterfalls";
import { countWithin } from "@/lib/inspect/budget";
import { waterfallWindow } from "@/lib/inspect/waterfall";

export const dynamic = "force-dynamic";

const query = z.object({
  at: wholeNumber(0).optional(),
  from: wholeNumber(0).optional(),
  limit: z.coerce.number().int().min(1).max(10_000).default(2_000),
});

/**
 * A window of the run's waterfall: at most `limit` bars (and the response budget) from bar index
 * `from`, or centred on the bar at step `at` (default: the run's start). The whole run's extent,
 * lanes and bar count come with every window; `next` and `previous` page on.
 */
export const GET = route<{ id: string }>(async (request, { id }) => {
  const { at, from, limit } = parseQuery(request, query);
  const run = await (await getStore()).run(id);
  if (!run) return notFound(`no run with id "${id}"`);
  const waterfall = await runWaterfall(id, run);
  if (!waterfall) return notFound(`no run with id "${id}"`);
  const window = waterfallWindow(waterfall, { limit, ...(from === undefined ? { at: at ?? 0 } : { from, ...(at === undefined ? {} : { at }) }) });
  const bars = redacted(window.bars);
  const fitting = bars.slice(0, countWithin(bars));
  const end = window.from + fitting.length;
  const path = `/api/runs/${encodeURIComponent(id)}/waterfall`;
  return json({
    runId: id,
    ...window,
    bars: fitting,
    next: end < window.total ? `${path}?from=${end}&limit=${limit}` : null,
    previous: window.from > 0 ? `${path}?from=${Math.max(0, window.from - limit)}&limit=${limit}` : null,
  });
});
