import type { NextRequest } from "next/server";
import { z } from "zod";
import { errorResponse, json } from "@/app/_server/http";
import { getStore } from "@/app/_server/store";
import { BadInputError } from "@/lib/journal/errors";
import { RUN_STATUSES } from "@/lib/journal/types";

export const dynamic = "force-dynamic";

const query = z.object({
  status: z.enum(RUN_STATUSES as ["running", "paused", "complete", "failed"]).optional(),
  agent: z.string().min(1).max(200).optional(),
  search: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  cursor: z.string().min(1).max(1000).optional(),
});

export async function GET(request: NextRequest) {
  try {
    const parsed = query.safeParse(Object.fromEntries(request.nextUrl.searchParams));
    if (!parsed.success) throw new BadInputError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "));
    const store = await getStore();
    return json(await store.runs(parsed.data));
  } catch (error) {
    return errorResponse(error);
  }
}
