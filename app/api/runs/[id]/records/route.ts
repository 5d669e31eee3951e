import { z } from "zod";
import { errorResponse, json, notFound, parseQuery } from "@/app/_server/http";
import { getStore } from "@/app/_server/store";

export const dynamic = "force-dynamic";

const query = z.object({
  from: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(5000).default(500),
});

export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = await context.params;
    const parsed = parseQuery(request, query);
    const store = await getStore();
    const run = await store.run(id);
    if (!run) return notFound(`no run with id "${id}"`);
    const records = await store.history(id, parsed);
    const next = parsed.from + records.length;
    return json({ records, nextFrom: next <= run.lastSeq ? next : null });
  } catch (error) {
    return errorResponse(error);
  }
}
