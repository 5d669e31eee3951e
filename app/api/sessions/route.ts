import { z } from "zod";
import { json, parseQuery, route } from "@/app/_server/http";
import { getStore } from "@/app/_server/store";
import { SessionService } from "@/lib/sessions";

export const dynamic = "force-dynamic";

const query = z.object({
  app: z.string().min(1).max(256).optional(),
  user: z.string().min(1).max(256).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

/** GET /api/sessions?app=&user=&limit= → `{ sessions: SessionSummary[] }`, most recently updated first. */
export const GET = route(async (request) => {
  const parsed = parseQuery(request, query);
  const sessions = await new SessionService((await getStore()).client).listSessions(parsed);
  return json({ sessions });
});
