import { z } from "zod";
import { json, parseBody, route } from "@/app/_server/http";
import { decideThenResume } from "@/app/_server/resume";
import { approve } from "@/lib/recovery/pause-decisions";

export const dynamic = "force-dynamic";

const body = z
  .object({
    decision: z.enum(["approve", "deny"]),
    by: z.string().trim().min(1).max(120).optional(),
    reason: z.string().max(2000).optional(),
  })
  .strict();

/**
 * POST /api/runs/{id}/decisions → 202 { runId, decision, jobId }: approve or deny the tool call the
 * run waits on, journaled with who decided before the answer; the run resumes in job `jobId`.
 */
export const POST = route<{ id: string }>(async (request, { id }) => {
  const asked = await parseBody(request, body);
  return json(
    await decideThenResume(id, "decision", (store) => approve(store, id, { approved: asked.decision === "approve", by: asked.by ?? "inspector", reason: asked.reason })),
    202,
  );
});
