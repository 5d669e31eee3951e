/**
 * JobRunner: background jobs (the inspector's replays, recovery passes and resumes after a
 * decision) with a concurrency limit and a time limit, recorded in the `jobs` table so that their
 * state outlives the process. Invariants:
 * - a job is run only by the runner that accepted it (its `owner`); a runner renews the heartbeat
 *   of its unfinished jobs while it lives;
 * - an unfinished job whose heartbeat is older than `staleAfterMs` belonged to a runner that
 *   stopped: any runner marks it `interrupted` (its replay run stays in the journal, unfinished,
 *   so recovery can push it forward);
 * - every status change is NOTIFYed on `backtrack_jobs` for live views.
 */
import { randomBytes } from "node:crypto";
import { BacktrackError } from "../journal/errors";
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
}

export type JobHandler = (input: unknown, context: { jobId: string; signal: AbortSignal }) => Promise<unknown>;

interface JobRunnerOptions {
  handlers: Record<string, JobHandler>;
  /** Jobs running at once (BACKTRACK_JOB_CONCURRENCY, default 2). */
  concurrency?: number;
  /** A job running longer fails with a time-out (BACKTRACK_JOB_TIMEOUT_MS, default 120 s). */
  timeoutMs?: number;
  heartbeatMs?: number;
  staleAfterMs?: number;
}

const JOBS_CHANNEL = "backtrack_jobs";

class JobTimeoutError extends BacktrackError {
  constructor(
    readonly jobId: string,
    readonly timeoutMs: number,
  ) {
    super("job_timeout", `job ${jobId} ran longer than ${Math.round(timeoutMs / 1000)} s and was stopped`);
  }
}

interface JobRow {
  job_id: string;
  kind: string;
  status: JobStatus;
  input: unknown;
  output: unknown;
  error: string | null;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
}

const parsed = (value: unknown) => (typeof value === "string" ? (JSON.parse(value) as unknown) : value);

function toJob(row: JobRow): Job {
  return {
    jobId: row.job_id,
    kind: row.kind,
    status: row.status,
    input: parsed(row.input),
    output: parsed(row.output) ?? null,
    error: row.error,
    createdAt: iso(row.created_at),
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
  };
}

export class JobRunner {
  readonly owner = `${process.pid}-${randomBytes(6).toString("hex")}`;
  private readonly queue: Array<{ jobId: string; kind: string; input: unknown }> = [];
  private readonly running = new Map<string, AbortController>();
  private readonly concurrency: number;
  private readonly timeoutMs: number;
  private readonly staleAfterMs: number;
  private readonly timer: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly client: SqlClient,
    private readonly options: JobRunnerOptions,
  ) {
    this.concurrency = options.concurrency ?? Number(process.env.BACKTRACK_JOB_CONCURRENCY ?? 2);
    this.timeoutMs = options.timeoutMs ?? Number(process.env.BACKTRACK_JOB_TIMEOUT_MS ?? 120_000);
    const heartbeatMs = options.heartbeatMs ?? 5_000;
    this.staleAfterMs = options.staleAfterMs ?? heartbeatMs * 3;
    this.timer = setInterval(() => void this.beat().catch(() => undefined), heartbeatMs);
    this.timer.unref();
  }

  /** Marks the jobs of runners that stopped as interrupted; returns their ids. */
  async reapInterrupted(): Promise<string[]> {
    const rows = await this.client.query<{ job_id: string }>(
      `WITH reaped AS (
         UPDATE jobs SET status = 'interrupted', error = 'the server stopped while this job was unfinished', finished_at = now()
         WHERE status IN ('queued', 'running') AND heartbeat_at < now() - ($1::int * interval '1 millisecond')
         RETURNING job_id
       )
       SELECT job_id, pg_notify('${JOBS_CHANNEL}', job_id) FROM reaped`,
      [this.staleAfterMs],
    );
    return rows.map((row) => row.job_id);
  }

  async submit(kind: string, input: unknown, jobId = `job-${randomBytes(8).toString("hex")}`): Promise<Job> {
    if (!this.options.handlers[kind]) throw new BacktrackError("bad_input", `no job kind "${kind}"`);
    const rows = await this.client.query<JobRow>(
      `WITH created AS (
         INSERT INTO jobs (job_id, kind, status, input, owner) VALUES ($1::text, $2::text, 'queued', $3::text::jsonb, $4::text) RETURNING *
       )
       SELECT created.*, pg_notify('${JOBS_CHANNEL}', created.job_id) FROM created`,
      [jobId, kind, JSON.stringify(input ?? null), this.owner],
    );
    this.queue.push({ jobId, kind, input });
    this.pump();
    return toJob(rows[0] as JobRow);
  }

  async get(jobId: string): Promise<Job | undefined> {
    const rows = await this.client.query<JobRow>("SELECT * FROM jobs WHERE job_id = $1::text", [jobId]);
    return rows[0] && toJob(rows[0]);
  }

  /** How many jobs this runner is running now (for tests and health). */
  get active(): number {
    return this.running.size;
  }

  /** Stops taking jobs and aborts those running (they end as failed, or interrupted once stale). */
  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    for (const controller of this.running.values()) controller.abort(new BacktrackError("stopped", "the job runner stopped"));
  }

  private pump(): void {
    while (!this.stopped && this.running.size < this.concurrency && this.queue.length > 0) {
      const next = this.queue.shift();
      if (next) void this.execute(next.jobId, next.kind, next.input);
    }
  }

  private async execute(jobId: string, kind: string, input: unknown): Promise<void> {
    const controller = new AbortController();
    this.running.set(jobId, controller);
    const timeout = setTimeout(() => controller.abort(new JobTimeoutError(jobId, this.timeoutMs)), this.timeoutMs);
    try {
      await this.mark(jobId, "running", { started: true });
      const handler = this.options.handlers[kind] as JobHandler;
      const aborted = new Promise<never>((_, reject) => controller.signal.addEventListener("abort", () => reject(controller.signal.reason)));
      const output = await Promise.race([handler(input, { jobId, signal: controller.signal }), aborted]);
      await this.mark(jobId, "done", { output });
    } catch (error) {
      await this.mark(jobId, "failed", { error: error instanceof Error ? error.message : String(error) }).catch(() => undefined);
    } finally {
      clearTimeout(timeout);
      this.running.delete(jobId);
      this.pump();
    }
  }

  private async mark(jobId: string, status: JobStatus, change: { started?: boolean; output?: unknown; error?: string }): Promise<void> {
    await this.client.query(
      `WITH changed AS (
         UPDATE jobs SET status = $2::text,
           started_at = CASE WHEN $3::boolean THEN now() ELSE started_at END,
           finished_at = CASE WHEN $2::text IN ('done', 'failed') THEN now() ELSE finished_at END,
           output = COALESCE($4::text::jsonb, output), error = $5::text, heartbeat_at = now()
         WHERE job_id = $1::text RETURNING job_id
       )
       SELECT pg_notify('${JOBS_CHANNEL}', job_id) FROM changed`,
      [jobId, status, change.started === true, change.output === undefined ? null : JSON.stringify(change.output), change.error ?? null],
    );
  }

  private async beat(): Promise<void> {
    if (this.stopped) return;
    await this.client.query("UPDATE jobs SET heartbeat_at = now() WHERE owner = $1::text AND status IN ('queued', 'running')", [this.owner]);
    await this.reapInterrupted();
  }
}
