import { z } from "zod";
import { json, parseQuery, route } from "@/app/_server/http";
import { redacted } from "@/app/_server/redaction";
import { serverRuns } from "@/app/_server/runs-list";
import { getStore } from "@/app/_server/store";
import { RUN_SORTS, RUN_STATUSES } from "@/lib/journal/types";

export const dynamic = "force-dynamic";

const query = z.object({
  status: z.enum(RUN_STATUSES as ["running", "paused", "complete", "failed"]).optional(),
  agent: z.string().min(1).max(200).optional(),
  search: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  cursor: z.string().min(1).max(1000).optional(),
  forkOf: z.string().min(1).max(256).optional(),
  sort: z.enum(RUN_SORTS).optional(),
  order: z.enum(["asc", "desc"]).optional(),
});

export const GET = route(async (request) => {
  const parsed = parseQuery(request, query);
  const store = await getStore();
  return json(redacted(await serverRuns(store, parsed)));
});
