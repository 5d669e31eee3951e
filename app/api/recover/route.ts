import { json, route } from "@/app/_server/http";
import { jobRunner } from "@/app/_server/jobs";
import { RECOVER_JOB } from "@/lib/jobs/kinds";

export const dynamic = "force-dynamic";

/** POST /api/recover → 202 { jobId }: a recovery pass over every unfinished run, as a background job. */
export const POST = route(async () => {
  const job = await (await jobRunner()).submit(RECOVER_JOB, {});
  return json({ jobId: job.jobId }, 202);
});
