import { z } from "zod";
import { errorResponse, json, parseQuery } from "@/app/_server/http";
import { redacted } from "@/app/_server/redaction";
import { getStore } from "@/app/_server/store";
import { SessionService, sessionView } from "@/lib/sessions";

export const dynamic = "force-dynamic";

const query = z.object({ at: z.coerce.number().int().min(0).optional() });

/**
 * GET /api/sessions/{id}?at=N → the SessionView: the session, its events, the state after the first
 * N events (all by default) and the rebuild check (a mismatch is reported here, not thrown).
 */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = await context.params;
    const parsed = parseQuery(request, query);
    return json(redacted(await sessionView(new SessionService((await getStore()).client), id, parsed.at)));
  } catch (error) {
    return errorResponse(error);
  }
}
