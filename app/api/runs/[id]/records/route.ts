import type { NextRequest } from "next/server";
import { z } from "zod";
import { errorResponse, json, notFound } from "@/app/_server/http";
import { getStore } from "@/app/_server/store";
import { BadInputError } from "@/lib/journal/errors";

export const dynamic = "force-dynamic";

const query = z.object({
  from: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(5000).default(500),
});

export async function GET(request: NextRequest, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = await context.params;
    const parsed = query.safeParse(Object.fromEntries(request.nextUrl.searchParams));
    if (!parsed.success) throw new BadInputError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "));
    const store = await getStore();
    const run = await store.run(id);
    if (!run) return notFound(`no run with id "${id}"`);
    const records = await store.history(id, parsed.data);
    const next = parsed.data.from + records.length;
    return json({ records, nextFrom: next <= run.lastSeq ? next : null });
  } catch (error) {
    return errorResponse(error);
  }
}
