import { z } from "zod";
import { json, notFound, parseQuery, route } from "@/app/_server/http";
import { runOutline } from "@/app/_server/outlines";
import { getStore } from "@/app/_server/store";
import { wholeNumber } from "@/app/_server/url-input";

export const dynamic = "force-dynamic";

const query = z.object({ from: wholeNumber(0).default(0) });

/** The run's outline (one small entry per record) from seq `from` on: what the timeline and flowchart draw. */
export const GET = route<{ id: string }>(async (request, { id }) => {
  const { from } = parseQuery(request, query);
  const run = await (await getStore()).run(id);
  if (!run) return notFound(`no run with id "${id}"`);
  const entries = (await runOutline(id, run)) ?? [];
  return json({ run, entries: entries.slice(from, run.lastSeq + 1) });
});
