import { jobStatus } from "@/app/_server/jobs";

export const dynamic = "force-dynamic";

/**
 * GET /api/jobs/{jobId} → { jobId, kind, status, input, createdAt, startedAt, finishedAt, runId?, newRunId?, error?, result?, sentence? }:
 * any background job (resume, replay, recover); the one job-status route (/api/replays/{jobId} and
 * /api/recover/{jobId} are aliases of it, limited to their kind).
 */
export const GET = jobStatus();
