import { json, route } from "@/app/_server/http";
import { workersView } from "@/app/_server/jobs";

export const dynamic = "force-dynamic";

/**
 * GET /api/workers → { workers: [{ workerId, role, host, pid, kinds, concurrency, startedAt,
 * heartbeatAt, stale, jobs: [{ jobId, kind, attempts, runId }], leases: [{ runId, expiresAt }] }] }:
 * every process that runs jobs on this database (backtrack worker, an inspector's in-process
 * worker), its last heartbeat, and what it holds now.
 */
export const GET = route(async () => json(await workersView()));
