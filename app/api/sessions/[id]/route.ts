import { z } from "zod";
import { json, parseQuery, route } from "@/app/_server/http";
import { getStore } from "@/app/_server/store";
import { wholeNumber } from "@/app/_server/url-input";
import { SessionService, sessionView } from "@/lib/sessions";

export const dynamic = "force-dynamic";

const query = z.object({ at: wholeNumber(0).optional() });

/**
 * GET /api/sessions/{id}?at=N → the SessionView: the session, its events, the state after the first
 * N events (all by default) and the rebuild check (a mismatch is reported here, not thrown).
 */
export const GET = route<{ id: string }>(async (request, { id }) => {
  const parsed = parseQuery(request, query);
  return json(await sessionView(new SessionService((await getStore()).client), id, parsed.at));
});
