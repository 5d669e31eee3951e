/**
 * The shared job queue's statements (the `jobs` table), one statement each, on the server and on
 * embedded PGlite alike. Invariants:
 * - a queued job is claimed by one runner: the claim takes rows `FOR UPDATE SKIP LOCKED`, so two
 *   runners claiming at once get different jobs and never wait on each other;
 * - only the job's current owner may finish it (a runner whose job was taken from it cannot
 *   overwrite the new attempt's result);
 * - a running job whose heartbeat is stale belonged to a runner that stopped: it is queued again
 *   after a backoff (doubling from `backoffMs`, at most a minute), or, when its attempts are used
 *   up, ends `interrupted`;
 * - every job that becomes claimable is NOTIFYed on `backtrack_job_queued` (payload: its kind), so
 *   runners claim at once; a job queued again or interrupted also on `backtrack_jobs` (payload: its
 *   id). Claiming and finishing notify nothing: a NOTIFY at commit wakes every listening session
 *   of the database, which cut the queue's throughput to a fifth (bench/jobs.ts); views poll a
 *   job's status instead.
 */
import { iso } from "../store/rows";
import type { SqlClient } from "../store/sql-client";

export type JobStatus = "queued" | "running" | "done" | "failed" | "interrupted";

export interface Job<Input = unknown, Output = unknown> {
  jobId: string;
  kind: string;
  status: JobStatus;
  input: Input;
  output: Output | null;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** Claims so far: 1 for a job run once; more when a runner died under it. */
  attempts: number;
  maxAttempts: number;
  /** The runner (worker id) running it now; null when it is not running. */
  owner: string | null;
  /** The run the job drives, when it names one (recovery leaves that run to the job). */
  runId: string | null;
}

export const JOBS_CHANNEL = "backtrack_jobs";
export const QUEUED_CHANNEL = "backtrack_job_queued";
/** The longest backoff between attempts. */
const MAX_BACKOFF_MS = 60_000;

interface JobRow {
  job_id: string;
  kind: string;
  status: JobStatus;
  input: string;
  output: string | null;
  error: string | null;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  attempts: number;
  max_attempts: number;
  owner: string | null;
  run_id: string | null;
}

// input and output are read as text (see columns()): postgres.js would hand a JSON string back unquoted.
const parsed = (value: string | null): unknown => (value === null ? null : (JSON.parse(value) as unknown));

export function toJob(row: JobRow): Job {
  return {
    jobId: row.job_id,
    kind: row.kind,
    status: row.status,
    input: parsed(row.input),
    output: parsed(row.output),
    error: row.error,
    createdAt: iso(row.created_at),
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    owner: row.owner,
    runId: row.run_id,
  };
}

/** The columns a Job is read from, qualified with `table` (jsonb read as text). */
function columns(table = ""): string {
  const names = ["job_id", "kind", "status", "error", "created_at", "started_at", "finished_at", "attempts", "max_attempts", "owner", "run_id"];
  const prefix = table ? `${table}.` : "";
  return [...names.map((name) => `${prefix}${name}`), `${prefix}input::text AS input`, `${prefix}output::text AS output`].join(", ");
}

export interface NewJob {
  jobId: string;
  kind: string;
  input: unknown;
  runId?: string | null;
  maxAttempts: number;
}

export async function insertJob(client: SqlClient, job: NewJob): Promise<Job> {
  const rows = await client.query<JobRow>(
    `WITH created AS (
       INSERT INTO jobs (job_id, kind, status, input, owner, run_id, max_attempts) VALUES ($1::text, $2::text, 'queued', $3::text::jsonb, NULL, $4::text, $5::int)
       RETURNING ${columns()}
     )
     SELECT created.*, pg_notify('${JOBS_CHANNEL}', created.job_id), pg_notify('${QUEUED_CHANNEL}', created.kind) FROM created`,
    [job.jobId, job.kind, JSON.stringify(job.input ?? null), job.runId ?? null, job.maxAttempts],
  );
  return toJob(rows[0] as JobRow);
}

export async function selectJob(client: SqlClient, jobId: string): Promise<Job | undefined> {
  const rows = await client.query<JobRow>(`SELECT ${columns()} FROM jobs WHERE job_id = $1::text`, [jobId], { prepare: true });
  return rows[0] && toJob(rows[0]);
}

// The oldest due jobs of the runner's kinds (a job queued again keeps its place: it goes first once
// its backoff ends); rows another runner is claiming are skipped, not waited on.
const CLAIM_SQL = `
WITH next AS (
  SELECT job_id FROM jobs
  WHERE status = 'queued' AND run_after <= now() AND $2::text::jsonb ? kind
  ORDER BY created_at
  LIMIT $3::int
  FOR UPDATE SKIP LOCKED
), claimed AS (
  UPDATE jobs SET status = 'running', owner = $1::text, attempts = jobs.attempts + 1, started_at = now(), heartbeat_at = now()
  FROM next WHERE jobs.job_id = next.job_id
  RETURNING ${columns("jobs")}
)
SELECT claimed.* FROM claimed`;

/** Claims up to `limit` due queued jobs of `kinds` for `owner`, oldest first. */
export async function claimJobs(client: SqlClient, owner: string, kinds: readonly string[], limit: number): Promise<Job[]> {
  if (limit <= 0 || kinds.length === 0) return [];
  const rows = await client.query<JobRow>(CLAIM_SQL, [owner, JSON.stringify(kinds), limit], { prepare: true });
  return rows.map(toJob);
}

const FINISH_SQL = `
WITH changed AS (
  UPDATE jobs SET status = $3::text, finished_at = now(), output = $4::text::jsonb, error = $5::text, heartbeat_at = now()
  WHERE job_id = $1::text AND owner = $2::text AND status = 'running'
  RETURNING job_id
)
SELECT job_id FROM changed`;

/** Ends `owner`'s attempt: false when the job is no longer its (it was queued again meanwhile). */
export async function finishJob(client: SqlClient, jobId: string, owner: string, end: { status: "done" | "failed"; output?: unknown; error?: string }): Promise<boolean> {
  const output = end.output === undefined ? null : JSON.stringify(end.output);
  const rows = await client.query(FINISH_SQL, [jobId, owner, end.status, output, end.error ?? null], { prepare: true });
  return rows.length > 0;
}

/** Gives `owner`'s running jobs back to the queue (a runner stopping cleanly): the attempt does not count. */
export async function releaseJobs(client: SqlClient, owner: string, jobIds: readonly string[]): Promise<string[]> {
  if (jobIds.length === 0) return [];
  const rows = await client.query<{ job_id: string }>(
    `WITH released AS (
       UPDATE jobs SET status = 'queued', owner = NULL, attempts = greatest(jobs.attempts - 1, 0), run_after = now()
       WHERE owner = $1::text AND status = 'running' AND job_id IN (SELECT jsonb_array_elements_text($2::text::jsonb))
       RETURNING job_id, kind
     )
     SELECT job_id, pg_notify('${JOBS_CHANNEL}', job_id), pg_notify('${QUEUED_CHANNEL}', kind) FROM released`,
    [owner, JSON.stringify(jobIds)],
  );
  return rows.map((row) => row.job_id);
}

/**
 * Renews the heartbeat of the jobs `owner` runs now (`jobIds`); returns those it still owns. A
 * job the owner's row names but the runner does not run (a claim whose runner forgot it) is not
 * renewed: it goes stale and runs again.
 */
export async function beatJobs(client: SqlClient, owner: string, jobIds: readonly string[]): Promise<string[]> {
  if (jobIds.length === 0) return [];
  const rows = await client.query<{ job_id: string }>(
    "UPDATE jobs SET heartbeat_at = now() WHERE owner = $1::text AND status = 'running' AND job_id IN (SELECT jsonb_array_elements_text($2::text::jsonb)) RETURNING job_id",
    [owner, JSON.stringify(jobIds)],
    { prepare: true },
  );
  return rows.map((row) => row.job_id);
}

// Rows being reaped by another runner are skipped: each stale job is queued again once.
const REQUEUE_SQL = `
WITH stale AS (
  SELECT job_id FROM jobs
  WHERE status = 'running' AND heartbeat_at < now() - $1::double precision * interval '1 millisecond'
  FOR UPDATE SKIP LOCKED
), changed AS (
  UPDATE jobs SET
    status = CASE WHEN jobs.attempts >= jobs.max_attempts THEN 'interrupted' ELSE 'queued' END,
    error = 'the server stopped while this job was running (attempt ' || jobs.attempts || ' of ' || jobs.max_attempts || ', runner ' || coalesce(jobs.owner, 'unknown') || ')',
    owner = NULL,
    run_after = now() + least($2::double precision * power(2, greatest(jobs.attempts - 1, 0)), ${MAX_BACKOFF_MS}) * interval '1 millisecond',
    finished_at = CASE WHEN jobs.attempts >= jobs.max_attempts THEN now() END
  FROM stale WHERE jobs.job_id = stale.job_id
  RETURNING jobs.job_id, jobs.kind, jobs.status
)
SELECT job_id, status, pg_notify('${JOBS_CHANNEL}', job_id) FROM changed`;

export interface Requeued {
  /** Queued again, to run after their backoff. */
  requeued: string[];
  /** Out of attempts: they end `interrupted` (their run stays in the journal for recovery). */
  interrupted: string[];
}

/** Queues again (or, out of attempts, interrupts) the running jobs whose heartbeat is older than `staleAfterMs`. */
export async function requeueStale(client: SqlClient, staleAfterMs: number, backoffMs: number): Promise<Requeued> {
  const rows = await client.query<{ job_id: string; status: JobStatus }>(REQUEUE_SQL, [staleAfterMs, backoffMs]);
  return {
    requeued: rows.filter((row) => row.status === "queued").map((row) => row.job_id),
    interrupted: rows.filter((row) => row.status === "interrupted").map((row) => row.job_id),
  };
}

/** The runs unfinished jobs drive: recovery leaves them to the jobs (a retry continues them). */
export async function jobRuns(client: SqlClient): Promise<Set<string>> {
  const rows = await client.query<{ run_id: string }>("SELECT DISTINCT run_id FROM jobs WHERE status IN ('queued', 'running') AND run_id IS NOT NULL", [], { prepare: true });
  return new Set(rows.map((row) => row.run_id));
}
