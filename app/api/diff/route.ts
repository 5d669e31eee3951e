import { z } from "zod";
import { json, parseQuery, route } from "@/app/_server/http";
import { getStore } from "@/app/_server/store";
import { diffRuns } from "@/lib/regression/diff-runs";

export const dynamic = "force-dynamic";

const query = z.object({
  a: z.string().min(1).max(256),
  b: z.string().min(1).max(256),
  realign: z.enum(["0", "1", "true", "false"]).optional(),
});

/** GET /api/diff?a=&b=[&realign=1] → the RunDiff of two runs (404 when either is unknown). */
export const GET = route(async (request) => {
  const { a, b, realign } = parseQuery(request, query);
  const store = await getStore();
  return json(await diffRuns(store, a, b, { realign: realign === "1" || realign === "true" }));
});
