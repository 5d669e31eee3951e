import { z } from "zod";
import { json, parseBody, route } from "@/app/_server/http";
import { decideThenResume } from "@/app/_server/resume";
import { answer } from "@/lib/recovery/pause-decisions";

export const dynamic = "force-dynamic";

const body = z
  .object({
    text: z.string().trim().min(1).max(10_000),
    by: z.string().trim().min(1).max(120).optional(),
  })
  .strict();

/** POST /api/runs/{id}/answers → 202 { runId, answer, jobId }: the answer to the run's question is journaled; the run resumes in job `jobId`. */
export const POST = route<{ id: string }>(async (request, { id }) => {
  const asked = await parseBody(request, body);
  return json(await decideThenResume(id, "answer", (store) => answer(store, id, asked.text, { by: asked.by ?? "inspector" })), 202);
});
