import { z } from "zod";
import { json, route } from "@/app/_server/http";
import { redacted } from "@/app/_server/redaction";
import { getStore } from "@/app/_server/store";
import { BadInputError } from "@/lib/journal/errors";
import { rebuildReport, SessionService } from "@/lib/sessions";
import { idSchema } from "@/lib/sessions/validate";

export const dynamic = "force-dynamic";

// The check takes no options: an unknown parameter is a mistake worth saying, not ignoring.
const query = z.strictObject(
  {},
  { error: (issue) => (issue.code === "unrecognized_keys" ? `unknown parameter ${issue.keys.map((key) => `"${key}"`).join(", ")}: the rebuild check takes none` : undefined) },
);

/**
 * GET /api/sessions/{id}/rebuild → `{ id, revision, checkedAt, rebuild, rows }`: the session read
 * afresh, its stored deltas replayed and compared with the stored snapshots. Reads only.
 */
export const GET = route<{ id: string }>(async (request, { id }) => {
  const options = query.safeParse(Object.fromEntries(request.nextUrl.searchParams));
  if (!options.success) throw new BadInputError(options.error.issues.map((issue) => issue.message).join("; "));
  const parsed = idSchema.safeParse(id);
  if (!parsed.success) throw new BadInputError(`session id: ${parsed.error.issues.map((issue) => issue.message).join("; ")}`);
  return json(redacted(await rebuildReport(new SessionService((await getStore()).client), parsed.data), { distinct: true }));
});
