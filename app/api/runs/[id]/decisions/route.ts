import { z } from "zod";
import { errorResponse, json, parseBody } from "@/app/_server/http";
import { resumeDecided } from "@/app/_server/resume";
import { getStore } from "@/app/_server/store";
import { approve } from "@/lib/recovery/decisions";
import { AlreadyDecidedError } from "@/lib/recovery/errors";

export const dynamic = "force-dynamic";

const body = z
  .object({
    decision: z.enum(["approve", "deny"]),
    by: z.string().trim().min(1).max(120).optional(),
    reason: z.string().max(2000).optional(),
  })
  .strict();

/** POST /api/runs/{id}/decisions: approve or deny the tool call the run waits on (journaled with who decided), then resume it. */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = await context.params;
    const asked = await parseBody(request, body);
    const store = await getStore();
    const decided = await approve(store, id, { approved: asked.decision === "approve", by: asked.by ?? "inspector", reason: asked.reason });
    if (!decided.created) throw new AlreadyDecidedError(decided.runId, decided.record.payload.by);
    const resumed = await resumeDecided(store, id);
    return json({ runId: decided.runId, decision: decided.record.payload, ...resumed });
  } catch (error) {
    return errorResponse(error);
  }
}
