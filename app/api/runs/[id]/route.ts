import { accessSettings } from "@/app/_server/access";
import { errorResponse, json, notFound } from "@/app/_server/http";
import { getStore } from "@/app/_server/store";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = await context.params;
    const run = await (await getStore()).run(id);
    return run ? json({ run }) : notFound(`no run with id "${id}"`);
  } catch (error) {
    return errorResponse(error);
  }
}

/**
 * DELETE /api/runs/{id} → { deleted: { runs, records, leases } }: the run, its sub-agent runs and
 * their leases. The proxy refuses it in read-only mode; checked here too, as a mutation that loses data.
 */
export async function DELETE(_request: Request, context: { params: Promise<{ id: string }> }) {
  if (accessSettings().readOnly) return json({ error: { code: "read_only", message: "this inspector is read-only (BACKTRACK_READ_ONLY=1): deleting runs is off" } }, 403);
  try {
    const { id } = await context.params;
    return json({ deleted: await (await getStore()).deleteRun(id) });
  } catch (error) {
    return errorResponse(error);
  }
}
