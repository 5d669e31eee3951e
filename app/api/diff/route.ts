import type { NextRequest } from "next/server";
import { z } from "zod";
import { errorResponse, json } from "@/app/_server/http";
import { getStore } from "@/app/_server/store";
import { BadInputError } from "@/lib/journal/errors";
import { diffRuns } from "@/lib/regression/diff-runs";

export const dynamic = "force-dynamic";

const query = z.object({
  a: z.string().min(1).max(256),
  b: z.string().min(1).max(256),
  realign: z.enum(["0", "1", "true", "false"]).optional(),
});

/** GET /api/diff?a=&b=[&realign=1] → the RunDiff of two runs (404 when either is unknown). */
export async function GET(request: NextRequest) {
  try {
    const parsed = query.safeParse(Object.fromEntries(request.nextUrl.searchParams));
    if (!parsed.success) throw new BadInputError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "));
    const store = await getStore();
    const realign = parsed.data.realign === "1" || parsed.data.realign === "true";
    return json(await diffRuns(store, parsed.data.a, parsed.data.b, { realign }));
  } catch (error) {
    return errorResponse(error);
  }
}
