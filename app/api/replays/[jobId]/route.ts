import { errorResponse, json, notFound } from "@/app/_server/http";
import { jobRunner } from "@/app/_server/jobs";
import { REPLAY_JOB, type ReplayJobInput, type ReplayJobOutput } from "@/lib/jobs/kinds";

export const dynamic = "force-dynamic";

/** GET /api/replays/{jobId} → { jobId, status, newRunId, error?, result? } (polled by the replay dialog). */
export async function GET(_request: Request, context: { params: Promise<{ jobId: string }> }) {
  try {
    const { jobId } = await context.params;
    const job = await (await jobRunner()).get(jobId);
    if (!job || job.kind !== REPLAY_JOB) return notFound(`no replay job with id "${jobId}"`);
    const input = job.input as ReplayJobInput;
    return json({
      jobId: job.jobId,
      status: job.status,
      runId: input.runId,
      newRunId: input.newRunId,
      ...(job.error ? { error: job.error } : {}),
      ...(job.output ? { result: job.output as ReplayJobOutput } : {}),
    });
  } catch (error) {
    return errorResponse(error);
  }
}
