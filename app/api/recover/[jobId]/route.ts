import { jobStatus } from "@/app/_server/jobs";
import { RECOVER_JOB } from "@/lib/jobs/kinds";

export const dynamic = "force-dynamic";

/** GET /api/recover/{jobId}: an alias of GET /api/jobs/{jobId} that knows recovery jobs only (404 for others). */
export const GET = jobStatus(RECOVER_JOB);
