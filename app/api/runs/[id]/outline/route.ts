import { z } from "zod";
import { errorResponse, json, notFound, parseQuery } from "@/app/_server/http";
import { runOutline } from "@/app/_server/outlines";
import { getStore } from "@/app/_server/store";

export const dynamic = "force-dynamic";

const query = z.object({ from: z.coerce.number().int().min(0).default(0) });

/** The run's outline (one small entry per record) from seq `from` on: what the timeline and flowchart draw. */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = await context.params;
    const { from } = parseQuery(request, query);
    const run = await (await getStore()).run(id);
    if (!run) return notFound(`no run with id "${id}"`);
    const entries = (await runOutline(id, run)) ?? [];
    return json({ run, entries: entries.slice(from, run.lastSeq + 1) });
  } catch (error) {
    return errorResponse(error);
  }
}
