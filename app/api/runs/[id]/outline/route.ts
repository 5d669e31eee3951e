import { z } from "zod";
import { json, notFound, parseQuery, route } from "@/app/_server/http";
import { runOutline } from "@/app/_server/outlines";
import { redacted } from "@/app/_server/redaction";
import { getStore } from "@/app/_server/store";
import { wholeNumber } from "@/app/_server/url-input";
import { countWithin } from "@/lib/inspect/budget";
import { wireEntry } from "@/lib/inspect/outline";

export const dynamic = "force-dynamic";

const query = z.object({
  from: wholeNumber(0).default(0),
  limit: z.coerce.number().int().min(1).max(50_000).default(10_000),
});

/**
 * The run's outline (one small entry per record) from seq `from` on: what the timeline and flowchart
 * draw. At most `limit` entries and the response budget; `nextFrom` and `next` continue (null at the end).
 */
export const GET = route<{ id: string }>(async (request, { id }) => {
  const { from, limit } = parseQuery(request, query);
  const run = await (await getStore()).run(id);
  if (!run) return notFound(`no run with id "${id}"`);
  const outline = await runOutline(id, run);
  const page = redacted((outline?.entries.slice(from, Math.min(run.lastSeq + 1, from + limit)) ?? []).map(wireEntry));
  const entries = page.slice(0, countWithin(page));
  const nextFrom = from + entries.length;
  const more = entries.length > 0 && nextFrom <= run.lastSeq;
  return json({ run: redacted(run), entries, nextFrom: more ? nextFrom : null, next: more ? `/api/runs/${encodeURIComponent(id)}/outline?from=${nextFrom}&limit=${limit}` : null });
});
