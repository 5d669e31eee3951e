import { z } from "zod";
import { json, parseBody, route } from "@/app/_server/http";
import { decideThenResume } from "@/app/_server/resume";
import { resolveHalt } from "@/lib/recovery/pause-decisions";

export const dynamic = "force-dynamic";

const body = z
  .object({
    outcome: z.enum(["succeeded", "failed", "retry"]),
    result: z.json().optional(),
    reason: z.string().max(2000).optional(),
    by: z.string().trim().min(1).max(120).optional(),
  })
  .strict()
  .refine((asked) => asked.result === undefined || asked.outcome === "succeeded", { message: "result goes with outcome succeeded only", path: ["result"] });

/**
 * POST /api/runs/{id}/resolutions → 202 { runId, resolution, jobId }: how the call the run halted on
 * ended, as a person found out downstream (succeeded with a result, failed, or retry once),
 * journaled with who said so; the run resumes in job `jobId`.
 */
export const POST = route<{ id: string }>(async (request, { id }) => {
  const asked = await parseBody(request, body);
  return json(
    await decideThenResume(id, "resolution", (store) =>
      resolveHalt(store, id, { outcome: asked.outcome, result: asked.result, reason: asked.reason, by: asked.by ?? "inspector" }),
    ),
    202,
  );
});
