/**
 * The server process's one JobRunner: requests submit jobs to the shared queue (replays and
 * recovery passes run in a job, not in the request). By default the server also runs jobs (its
 * in-process worker); BACKTRACK_NO_WORKER=1 (`backtrack start --no-worker`) leaves them to
 * `backtrack worker` processes. Limits come from BACKTRACK_JOB_CONCURRENCY and
 * BACKTRACK_JOB_TIMEOUT_MS, the heartbeat from BACKTRACK_JOB_HEARTBEAT_MS (a job is stale after
 * three missed beats and runs again, up to BACKTRACK_JOB_MAX_ATTEMPTS; see lib/jobs/runner.ts).
 */
import "server-only";
import { jobHandlers } from "@/lib/jobs/kinds";
import { jobView } from "@/lib/jobs/view";
import { JobRunner } from "@/lib/jobs/runner";
import { listWorkers, type WorkerView } from "@/lib/jobs/workers";
import { PostgresWaker } from "@/lib/store/postgres-waker";
import { json, notFound, route } from "./http";
import { processWideStart } from "./process-wide";
import { serverRegistry } from "./registry";
import { getStore } from "./store";
import { redacted } from "./redaction";

function positive(text: string | undefined, name: string): number | undefined {
  if (text === undefined || text === "") return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, got "${text}"`);
  return value;
}

async function start(): Promise<JobRunner> {
  const store = await getStore();
  const runner = new JobRunner(store.client, {
    handlers: jobHandlers(store, await serverRegistry(), {
      waker: new PostgresWaker(store),
      leaseTtlMs: positive(process.env.BACKTRACK_LEASE_TTL_MS, "BACKTRACK_LEASE_TTL_MS"),
    }),
    concurrency: positive(process.env.BACKTRACK_JOB_CONCURRENCY, "BACKTRACK_JOB_CONCURRENCY"),
    timeoutMs: positive(process.env.BACKTRACK_JOB_TIMEOUT_MS, "BACKTRACK_JOB_TIMEOUT_MS"),
    heartbeatMs: positive(process.env.BACKTRACK_JOB_HEARTBEAT_MS, "BACKTRACK_JOB_HEARTBEAT_MS"),
    maxAttempts: positive(process.env.BACKTRACK_JOB_MAX_ATTEMPTS, "BACKTRACK_JOB_MAX_ATTEMPTS"),
    backoffMs: positive(process.env.BACKTRACK_JOB_BACKOFF_MS, "BACKTRACK_JOB_BACKOFF_MS"),
    runJobs: process.env.BACKTRACK_NO_WORKER !== "1",
    role: "inspector",
  });
  return runner;
}

export function jobRunner(): Promise<JobRunner> {
  return processWideStart("jobs", start);
}

/**
 * The job-status route's handler: GET /api/jobs/{jobId} (any kind) and its aliases
 * /api/replays/{jobId} and /api/recover/{jobId} (`kind` given: a job of another kind is not found).
 */
export function jobStatus(kind?: string) {
  return route<{ jobId: string }>(async (_request, { jobId }) => {
    const job = await (await jobRunner()).get(jobId);
    if (!job || (kind !== undefined && job.kind !== kind)) return notFound(kind ? `no ${kind} job with id "${jobId}"` : `no job with id "${jobId}"`);
    // A job's input and error can quote recorded values (an answer, a resolution's result).
    return json(redacted(jobView(job)));
  });
}

/** The fleet as /recovery shows it: every worker, its last heartbeat, and what it holds. */
export async function workersView(): Promise<{ workers: WorkerView[] }> {
  const store = await getStore();
  const heartbeatMs = positive(process.env.BACKTRACK_JOB_HEARTBEAT_MS, "BACKTRACK_JOB_HEARTBEAT_MS") ?? 5_000;
  return { workers: await listWorkers(store.client, heartbeatMs * 3) };
}
