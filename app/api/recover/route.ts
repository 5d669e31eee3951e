import { json, route } from "@/app/_server/http";
import { jobRunner } from "@/app/_server/jobs";
import { RECOVER_JOB } from "@/lib/jobs/kinds";

export const dynamic = "force-dynamic";

/** POST /api/recover[?imported=1] → 202 { jobId }: a recovery pass over every unfinished run an agent wrote (imported ones too with imported=1), as a background job. */
export const POST = route(async (request) => {
  const includeImported = new URL(request.url).searchParams.get("imported") === "1";
  const job = await (await jobRunner()).submit(RECOVER_JOB, includeImported ? { includeImported } : {});
  return json({ jobId: job.jobId }, 202);
});
