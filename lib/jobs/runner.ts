/**
 * JobRunner: takes jobs from the shared queue (lib/jobs/queue.ts) and runs them, with a
 * concurrency limit and a time limit. Kinds register handlers; any process with a runner may
 * submit a job, and any runner with a handler for its kind may claim it. Invariants:
 * - a job runs on one runner at a time (the claim is `FOR UPDATE SKIP LOCKED`; only the owner
 *   may finish it), and its runner renews its heartbeat while it lives;
 * - a running job whose heartbeat is older than `staleAfterMs` belonged to a runner that died:
 *   any runner queues it again with backoff, up to `maxAttempts` (then it ends `interrupted`).
 *   A handler must therefore be safe to run again: the inspector's kinds drive journaled runs, so
 *   a retry continues the same run from its journal;
 * - a handler that throws fails its job (a fault is not retried: it would fail again);
 * - stop() stops claiming, lets running jobs finish for a grace period, then aborts them and gives
 *   them back to the queue (the attempt does not count);
 * - `runJobs: false` makes a runner that only submits and reads (an inspector with --no-worker).
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { BacktrackError } from "../journal/errors";
import type { SqlClient } from "../store/sql-client";
import { beatJobs, claimJobs, finishJob, insertJob, QUEUED_CHANNEL, releaseJobs, requeueStale, selectJob, type Job, type Requeued } from "./queue";
import { beatWorker, forgetSilentWorkers, newWorkerId, removeWorker, type WorkerInfo, type WorkerRole } from "./workers";

export type { Job, JobStatus } from "./queue";

export interface JobContext {
  jobId: string;
  signal: AbortSignal;
  /** 1 on the first run; more when an earlier runner died under the job. */
  attempt: number;
  /** A lease holder name for runs this job drives: `<workerId>/<n>`, so /recovery shows them as this worker's. */
  holder: string;
}

export type JobHandler = (input: unknown, context: JobContext) => Promise<unknown>;

/** What a runner did, one event per action (the worker logs one line each). */
export type JobEvent =
  | { type: "claimed"; job: Job }
  | { type: "done"; job: Job; ms: number }
  | { type: "failed"; job: Job; ms: number; error: string }
  | { type: "lost"; job: Job }
  | { type: "released"; jobIds: string[] }
  | { type: "requeued"; requeued: Requeued }
  | { type: "error"; error: string };

export interface JobRunnerOptions {
  handlers: Record<string, JobHandler>;
  /** Jobs running at once (BACKTRACK_JOB_CONCURRENCY, default 2). */
  concurrency?: number;
  /** A job running longer fails with a time-out (BACKTRACK_JOB_TIMEOUT_MS, default 120 s). */
  timeoutMs?: number;
  heartbeatMs?: number;
  /** Default three heartbeats. */
  staleAfterMs?: number;
  /** Attempts a job gets when runners die under it (BACKTRACK_JOB_MAX_ATTEMPTS, default 3). */
  maxAttempts?: number;
  /** The backoff after the first death; it doubles each attempt, at most a minute. Default 1 s. */
  backoffMs?: number;
  /** How often to look for due jobs when no notification came. Default the heartbeat, within 100 ms to 1 s. */
  pollMs?: number;
  /** false: submit and read only, never claim. Default true. */
  runJobs?: boolean;
  /** Claim only these kinds (default: every kind with a handler). */
  kinds?: readonly string[];
  /** How /recovery lists it. Default "inspector". */
  role?: WorkerRole;
  workerId?: string;
  /** How long stop() lets running jobs finish before aborting them. Default 5 s. */
  graceMs?: number;
  onEvent?: (event: JobEvent) => void;
}

class JobTimeoutError extends BacktrackError {
  constructor(
    readonly jobId: string,
    readonly timeoutMs: number,
  ) {
    super("job_timeout", `job ${jobId} ran longer than ${Math.round(timeoutMs / 1000)} s and was stopped`);
  }
}

/** The job was queued again under its runner (its heartbeat went stale): another attempt owns it now. */
class JobLostError extends BacktrackError {
  constructor(readonly jobId: string) {
    super("stopped", `job ${jobId} was queued again while this runner ran it (its heartbeat went stale)`);
  }
}

const positiveEnv = (name: string): number | undefined => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : undefined;
};

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class JobRunner {
  /** This runner's worker id: the owner of the jobs it claims. */
  readonly owner: string;
  readonly staleAfterMs: number;
  private readonly running = new Map<string, { controller: AbortController; settled: Promise<void> }>();
  private readonly concurrency: number;
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly backoffMs: number;
  private readonly kinds: string[];
  private readonly runJobs: boolean;
  private readonly timers: NodeJS.Timeout[] = [];
  private unlisten: (() => Promise<void>) | undefined;
  private stopped = false;
  private pumping = false;
  private pumpAgain = false;
  private holders = 0;

  constructor(
    private readonly client: SqlClient,
    private readonly options: JobRunnerOptions,
  ) {
    this.owner = options.workerId ?? newWorkerId();
    this.concurrency = options.concurrency ?? positiveEnv("BACKTRACK_JOB_CONCURRENCY") ?? 2;
    this.timeoutMs = options.timeoutMs ?? positiveEnv("BACKTRACK_JOB_TIMEOUT_MS") ?? 120_000;
    this.maxAttempts = options.maxAttempts ?? positiveEnv("BACKTRACK_JOB_MAX_ATTEMPTS") ?? 3;
    this.backoffMs = options.backoffMs ?? 1_000;
    const heartbeatMs = options.heartbeatMs ?? 5_000;
    this.staleAfterMs = options.staleAfterMs ?? heartbeatMs * 3;
    this.runJobs = options.runJobs ?? true;
    this.kinds = Object.keys(options.handlers).filter((kind) => !options.kinds || options.kinds.includes(kind));
    if (!this.runJobs) return;
    this.every(heartbeatMs, () => this.beat());
    this.every(options.pollMs ?? Math.min(1_000, Math.max(100, heartbeatMs)), async () => this.pump());
    void this.listen();
    this.pump();
  }

  /** Who this runner is, as the workers table shows it. */
  get info(): WorkerInfo {
    return { workerId: this.owner, role: this.options.role ?? "inspector", host: hostname(), pid: process.pid, kinds: this.kinds, concurrency: this.concurrency };
  }

  /** Queues again the jobs of runners that stopped (and interrupts those out of attempts); returns their ids. */
  async requeueStale(): Promise<Requeued> {
    const requeued = await requeueStale(this.client, this.staleAfterMs, this.backoffMs);
    if (requeued.requeued.length + requeued.interrupted.length > 0) this.emit({ type: "requeued", requeued });
    return requeued;
  }

  /** requeueStale under its older name: the ids of every job it queued again or interrupted. */
  async reapInterrupted(): Promise<string[]> {
    const { requeued, interrupted } = await this.requeueStale();
    return [...requeued, ...interrupted];
  }

  /**
   * Queues a job of a registered kind. `options.runId` names the run it drives (recovery then
   * leaves that run to the job); a string is the job id (the older signature).
   */
  async submit(kind: string, input: unknown, options: string | { jobId?: string; runId?: string; maxAttempts?: number } = {}): Promise<Job> {
    if (!this.options.handlers[kind]) throw new BacktrackError("bad_input", `no job kind "${kind}"`);
    const { jobId, runId, maxAttempts } = typeof options === "string" ? { jobId: options } : options;
    const job = await insertJob(this.client, {
      jobId: jobId ?? `job-${randomBytes(8).toString("hex")}`,
      kind,
      input,
      runId: runId ?? drivenRun(input),
      maxAttempts: maxAttempts ?? this.maxAttempts,
    });
    this.pump();
    return job;
  }

  async get(jobId: string): Promise<Job | undefined> {
    return selectJob(this.client, jobId);
  }

  /** How many jobs this runner is running now (for tests and health). */
  get active(): number {
    return this.running.size;
  }

  /** The ids of the jobs this runner is running now. */
  get activeJobs(): string[] {
    return [...this.running.keys()];
  }

  /**
   * Stops claiming; waits up to the grace period for running jobs, then aborts the rest and gives
   * them back to the queue, and removes this runner from the workers table.
   */
  async stop(options: { graceMs?: number } = {}): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    await this.unlisten?.().catch(() => undefined);
    if (!this.runJobs) return;
    const graceMs = options.graceMs ?? this.options.graceMs ?? 5_000;
    const all = () => Promise.all([...this.running.values()].map((entry) => entry.settled));
    await Promise.race([all(), sleep(graceMs)]);
    const left = [...this.running.keys()];
    for (const entry of this.running.values()) entry.controller.abort(new BacktrackError("stopped", "the job runner stopped"));
    // A handler sees the abort between steps: give it a moment, so the next owner starts after it.
    await Promise.race([all(), sleep(2_000)]);
    const released = await releaseJobs(this.client, this.owner, left).catch(() => []);
    if (released.length > 0) this.emit({ type: "released", jobIds: released });
    await removeWorker(this.client, this.owner).catch(() => undefined);
  }

  private every(ms: number, work: () => Promise<void>): void {
    const timer = setInterval(() => void work().catch((error: unknown) => this.emit({ type: "error", error: message(error) })), ms);
    timer.unref();
    this.timers.push(timer);
  }

  private async listen(): Promise<void> {
    try {
      const unlisten = await this.client.listen(QUEUED_CHANNEL, () => this.pump());
      if (this.stopped) await unlisten();
      else this.unlisten = unlisten;
    } catch (error) {
      // Polling still finds the jobs.
      this.emit({ type: "error", error: `cannot listen for new jobs (polling instead): ${message(error)}` });
    }
  }

  private emit(event: JobEvent): void {
    this.options.onEvent?.(event);
  }

  /** Claims as many jobs as there are free slots; coalesces calls that come while a claim is in flight. */
  private pump(): void {
    if (!this.runJobs || this.stopped) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    void (async () => {
      try {
        do {
          this.pumpAgain = false;
          const free = this.concurrency - this.running.size;
          if (free <= 0 || this.stopped) break;
          const claimed = await claimJobs(this.client, this.owner, this.kinds, free);
          for (const job of claimed) this.execute(job);
          if (claimed.length === free) this.pumpAgain = true;
        } while (this.pumpAgain && !this.stopped);
      } catch (error) {
        this.emit({ type: "error", error: `cannot claim jobs: ${message(error)}` });
      } finally {
        this.pumping = false;
      }
    })();
  }

  private execute(job: Job): void {
    const controller = new AbortController();
    let done = () => undefined as void;
    const settled = new Promise<void>((resolve) => (done = resolve));
    this.running.set(job.jobId, { controller, settled });
    this.emit({ type: "claimed", job });
    void this.attempt(job, controller).finally(() => {
      this.running.delete(job.jobId);
      done();
      this.pump();
    });
  }

  private async attempt(job: Job, controller: AbortController): Promise<void> {
    const started = performance.now();
    const timeout = setTimeout(() => controller.abort(new JobTimeoutError(job.jobId, this.timeoutMs)), this.timeoutMs);
    const context: JobContext = { jobId: job.jobId, signal: controller.signal, attempt: job.attempts, holder: `${this.owner}/${(this.holders += 1)}` };
    try {
      const handler = this.options.handlers[job.kind] as JobHandler;
      const aborted = new Promise<never>((_, reject) => controller.signal.addEventListener("abort", () => reject(controller.signal.reason)));
      // An abort after the handler settled (a late heartbeat) rejects nothing anyone awaits.
      aborted.catch(() => undefined);
      const output = await Promise.race([handler(job.input, context), aborted]);
      const finished = await finishJob(this.client, job.jobId, this.owner, { status: "done", output });
      this.emit(finished ? { type: "done", job, ms: performance.now() - started } : { type: "lost", job });
    } catch (error) {
      const reason: unknown = controller.signal.aborted ? controller.signal.reason : error;
      // Stopping gives the job back (stop() releases it); a lost job is another attempt's now.
      if (BacktrackError.is(reason, "stopped")) {
        if (reason instanceof JobLostError) this.emit({ type: "lost", job });
        return;
      }
      const finished = await finishJob(this.client, job.jobId, this.owner, { status: "failed", error: message(reason) }).catch(() => false);
      this.emit(finished ? { type: "failed", job, ms: performance.now() - started, error: message(reason) } : { type: "lost", job });
    } finally {
      clearTimeout(timeout);
    }
  }

  /** Renews this runner's row and its jobs' heartbeats; aborts jobs no longer its own; requeues dead runners' jobs. */
  private async beat(): Promise<void> {
    if (this.stopped) return;
    await beatWorker(this.client, this.info);
    // Only jobs running before the statement: one claimed meanwhile is ours, though not renewed by it.
    const before = [...this.running.keys()];
    const owned = new Set(await beatJobs(this.client, this.owner, before));
    for (const jobId of before) if (!owned.has(jobId)) this.running.get(jobId)?.controller.abort(new JobLostError(jobId));
    const { requeued } = await this.requeueStale();
    // Claim them as soon as their backoff ends, not at the next poll.
    if (requeued.length > 0) setTimeout(() => this.pump(), this.backoffMs + 10).unref();
    await forgetSilentWorkers(this.client);
  }
}

/** The run a job's input names as the one it drives: a replay's new run, a resumed run. */
function drivenRun(input: unknown): string | null {
  const fields = (input ?? {}) as { newRunId?: unknown; runId?: unknown; decision?: unknown };
  if (typeof fields.newRunId === "string") return fields.newRunId;
  if (fields.decision !== undefined && typeof fields.runId === "string") return fields.runId;
  return null;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
