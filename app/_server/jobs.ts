/**
 * The server process's one JobRunner (replays and recovery passes run here, not in the request).
 * Limits come from BACKTRACK_JOB_CONCURRENCY and BACKTRACK_JOB_TIMEOUT_MS (see lib/jobs/runner.ts).
 * Created with the store; it reaps the jobs of a previous server process as `interrupted` once
 * their heartbeat is stale, so a restart never leaves a job "running" forever.
 */
import "server-only";
import { jobHandlers } from "@/lib/jobs/kinds";
import { jobView } from "@/lib/jobs/view";
import { JobRunner } from "@/lib/jobs/runner";
import { PostgresWaker } from "@/lib/store/postgres-waker";
import { json, notFound, route } from "./http";
import { processWideStart } from "./process-wide";
import { serverRegistry } from "./registry";
import { getStore } from "./store";

function positive(text: string | undefined, name: string): number | undefined {
  if (text === undefined || text === "") return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, got "${text}"`);
  return value;
}

async function start(): Promise<JobRunner> {
  const store = await getStore();
  const runner = new JobRunner(store.client, {
    handlers: jobHandlers(store, await serverRegistry(), { waker: new PostgresWaker(store) }),
    concurrency: positive(process.env.BACKTRACK_JOB_CONCURRENCY, "BACKTRACK_JOB_CONCURRENCY"),
    timeoutMs: positive(process.env.BACKTRACK_JOB_TIMEOUT_MS, "BACKTRACK_JOB_TIMEOUT_MS"),
  });
  await runner.reapInterrupted();
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
    return json(jobView(job));
  });
}
