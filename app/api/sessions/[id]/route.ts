import type { NextRequest } from "next/server";
import { z } from "zod";
import { errorResponse, json } from "@/app/_server/http";
import { getStore } from "@/app/_server/store";
import { BadInputError } from "@/lib/journal/errors";
import { SessionService, sessionView } from "@/lib/sessions";

export const dynamic = "force-dynamic";

const query = z.object({ at: z.coerce.number().int().min(0).optional() });

/**
 * GET /api/sessions/{id}?at=N → the SessionView: the session, its events, the state after the first
 * N events (all by default) and the rebuild check (a mismatch is reported here, not thrown).
 */
export async function GET(request: NextRequest, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = await context.params;
    const parsed = query.safeParse(Object.fromEntries(request.nextUrl.searchParams));
    if (!parsed.success) throw new BadInputError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "));
    return json(await sessionView(new SessionService((await getStore()).client), id, parsed.data.at));
  } catch (error) {
    return errorResponse(error);
  }
}
