import { errorResponse, json, notFound } from "@/app/_server/http";
import { jobRunner } from "@/app/_server/jobs";
import { RECOVER_JOB, type RecoverJobOutput } from "@/lib/jobs/kinds";
import { recoverySentence } from "@/lib/recovery/actions";

export const dynamic = "force-dynamic";

/** GET /api/recover/{jobId} → { jobId, status, error?, result?, sentence? } (polled by the recovery board). */
export async function GET(_request: Request, context: { params: Promise<{ jobId: string }> }) {
  try {
    const { jobId } = await context.params;
    const job = await (await jobRunner()).get(jobId);
    if (!job || job.kind !== RECOVER_JOB) return notFound(`no recovery job with id "${jobId}"`);
    const result = job.output as RecoverJobOutput | null;
    return json({
      jobId: job.jobId,
      status: job.status,
      ...(job.error ? { error: job.error } : {}),
      ...(result ? { result, sentence: recoverySentence(result) } : {}),
    });
  } catch (error) {
    return errorResponse(error);
  }
}
