import type { NextRequest } from "next/server";
import { z } from "zod";
import { errorResponse, json } from "@/app/_server/http";
import { getStore } from "@/app/_server/store";
import { BadInputError } from "@/lib/journal/errors";
import { SessionService } from "@/lib/sessions";

export const dynamic = "force-dynamic";

const query = z.object({
  app: z.string().min(1).max(256).optional(),
  user: z.string().min(1).max(256).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

/** GET /api/sessions?app=&user=&limit= → `{ sessions: SessionSummary[] }`, most recently updated first. */
export async function GET(request: NextRequest) {
  try {
    const parsed = query.safeParse(Object.fromEntries(request.nextUrl.searchParams));
    if (!parsed.success) throw new BadInputError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "));
    const sessions = await new SessionService((await getStore()).client).listSessions(parsed.data);
    return json({ sessions });
  } catch (error) {
    return errorResponse(error);
  }
}
