import { errorResponse, json, notFound } from "@/app/_server/http";
import { jobRunner } from "@/app/_server/jobs";
import { jobView } from "@/lib/jobs/view";

export const dynamic = "force-dynamic";

/**
 * GET /api/jobs/{jobId} → { jobId, kind, status, input, createdAt, startedAt, finishedAt, error?, result?, sentence? }:
 * any background job (resume, replay, recover); the recovery board polls it after a decision.
 */
export async function GET(_request: Request, context: { params: Promise<{ jobId: string }> }) {
  try {
    const { jobId } = await context.params;
    const job = await (await jobRunner()).get(jobId);
    if (!job) return notFound(`no job with id "${jobId}"`);
    return json(jobView(job));
  } catch (error) {
    return errorResponse(error);
  }
}
