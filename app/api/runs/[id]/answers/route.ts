import { z } from "zod";
import { errorResponse, json, parseBody } from "@/app/_server/http";
import { resumeDecided } from "@/app/_server/resume";
import { getStore } from "@/app/_server/store";
import { answer } from "@/lib/recovery/decisions";
import { AlreadyDecidedError } from "@/lib/recovery/errors";

export const dynamic = "force-dynamic";

const body = z
  .object({
    text: z.string().trim().min(1).max(10_000),
    by: z.string().trim().min(1).max(120).optional(),
  })
  .strict();

/** POST /api/runs/{id}/answers: answer the question the run asked (an interrupt), then resume it. */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = await context.params;
    const asked = await parseBody(request, body);
    const store = await getStore();
    const decided = await answer(store, id, asked.text, { by: asked.by ?? "inspector" });
    if (!decided.created) throw new AlreadyDecidedError(decided.runId, decided.record.payload.by);
    const resumed = await resumeDecided(store, id);
    return json({ runId: decided.runId, answer: decided.record.payload, ...resumed });
  } catch (error) {
    return errorResponse(error);
  }
}
