import { jobStatus } from "@/app/_server/jobs";
import { REPLAY_JOB } from "@/lib/jobs/kinds";

export const dynamic = "force-dynamic";

/** GET /api/replays/{jobId}: an alias of GET /api/jobs/{jobId} that knows replay jobs only (404 for others). */
export const GET = jobStatus(REPLAY_JOB);
