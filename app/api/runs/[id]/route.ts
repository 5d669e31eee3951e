import { accessSettings } from "@/app/_server/access";
import { json, notFound, route } from "@/app/_server/http";
import { redacted } from "@/app/_server/redaction";
import { getStore } from "@/app/_server/store";

export const dynamic = "force-dynamic";

export const GET = route<{ id: string }>(async (_request, { id }) => {
  const run = await (await getStore()).run(id);
  return run ? json({ run: redacted(run) }) : notFound(`no run with id "${id}"`);
});

/**
 * DELETE /api/runs/{id} → { deleted: { runs, records, leases } }: the run, its sub-agent runs and
 * their leases. The proxy refuses it in read-only mode; checked here too, as a mutation that loses data.
 */
export const DELETE = route<{ id: string }>(async (_request, { id }) => {
  if (accessSettings().readOnly) return json({ error: { code: "read_only", message: "this inspector is read-only (BACKTRACK_READ_ONLY=1): deleting runs is off" } }, 403);
  return json({ deleted: await (await getStore()).deleteRun(id) });
});
