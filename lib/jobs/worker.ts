/**
 * Worker: what `backtrack worker` runs, a long-lived process that keeps a database's runs moving.
 * It runs jobs from the shared queue (a JobRunner) and, in loops of short passes:
 * - wakes sleeping runs whose time has come (the durable timers: wakeDue);
 * - takes over runs whose lease expired (their holder died) as soon as it has;
 * - drives unfinished runs that nobody holds, no wake-up waits for, and nothing has written to
 *   for `idleAfterMs` (a process that drove them without a lease died).
 * Invariants: a run some unfinished job names is left to that job (its retry continues it); every
 * drive holds the run's lease under `<workerId>/<n>`, so /recovery shows what this worker holds;
 * stop() ends within about 10 s: passes are aborted (their leases released), running jobs get a
 * grace period, then go back to the queue. One log line per action (`log`).
 */
import type { Registry } from "../agent/registry";
import type { Journal, Leaser, Lister } from "../journal/ports";
import { recover, type RecoveredRun, type RecoverResult } from "../recovery/recover";
import { registryResume } from "../recovery/resume";
import { wakeDue } from "../recovery/wake";
import { PostgresWaker } from "../store/postgres-waker";
import type { SqlClient } from "../store/sql-client";
import { jobHandlers } from "./kinds";
import { jobRuns } from "./queue";
import { JobRunner, type JobEvent, type JobHandler } from "./runner";

export interface WorkerOptions {
  store: Journal & Lister & Leaser & { client: SqlClient };
  registry: Registry;
  /** Jobs at once (default BACKTRACK_JOB_CONCURRENCY, then 2). */
  concurrency?: number;
  /** Job kinds this worker takes (default all it knows). */
  kinds?: readonly string[];
  /** More job kinds (name → handler) beside the inspector's. */
  handlers?: Record<string, JobHandler>;
  /** Lease TTL of the runs it drives. Default 30 s. */
  leaseTtlMs?: number;
  heartbeatMs?: number;
  staleAfterMs?: number;
  backoffMs?: number;
  maxAttempts?: number;
  timeoutMs?: number;
  /** An unheld unfinished run is driven once nothing was written to it for this long. Default 60 s. */
  idleAfterMs?: number;
  /** How often to look for due sleeps. Default 1 s. */
  wakeEveryMs?: number;
  /** How often to look for expired leases. Default a third of the lease TTL. */
  takeoverEveryMs?: number;
  /** How often to look for idle unheld runs. Default 5 s. */
  sweepEveryMs?: number;
  /** How long stop() lets running jobs finish. Default 5 s. */
  graceMs?: number;
  /**
   * Called once a day while the worker runs (and once at start): the retention hook
   * (BACKTRACK_RETENTION). It returns a line to log, or nothing.
   */
  daily?: (context: { signal: AbortSignal }) => Promise<string | void>;
  log?: (line: string) => void;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Runs one pass drives at most: passes stay short, so a stop or a new job never waits long. */
const PASS_LIMIT = 8;

export class Worker {
  readonly runner: JobRunner;
  private readonly controller = new AbortController();
  private readonly loops: Array<Promise<void>> = [];
  private readonly ttlMs: number;
  private holders = 0;

  constructor(private readonly options: WorkerOptions) {
    const { store, registry } = options;
    this.ttlMs = options.leaseTtlMs ?? 30_000;
    const waker = new PostgresWaker(store.client);
    this.runner = new JobRunner(store.client, {
      handlers: { ...jobHandlers(store, registry, { waker, leaseTtlMs: this.ttlMs }), ...options.handlers },
      concurrency: options.concurrency,
      kinds: options.kinds,
      heartbeatMs: options.heartbeatMs,
      staleAfterMs: options.staleAfterMs,
      backoffMs: options.backoffMs,
      maxAttempts: options.maxAttempts,
      timeoutMs: options.timeoutMs,
      graceMs: options.graceMs,
      role: "worker",
      onEvent: (event) => this.logJob(event),
    });
    const resume = registryResume(registry, store, { waker });
    const signal = this.controller.signal;
    const report = (verb: string) => (run: RecoveredRun) => this.logRun(verb, run);
    this.loop(options.wakeEveryMs ?? 1_000, () =>
      wakeDue(store, waker, resume, { ttlMs: this.ttlMs, holder: this.holder(), limit: PASS_LIMIT, signal, onProgress: report("woke") }),
    );
    this.loop(options.takeoverEveryMs ?? Math.max(100, Math.round(this.ttlMs / 3)), async () => {
      const owned = await jobRuns(store.client);
      return recover(store, resume, {
        ttlMs: this.ttlMs,
        holder: this.holder(),
        concurrency: 2,
        limit: PASS_LIMIT,
        waiting: "skip",
        select: (run) => run.abandoned && !owned.has(run.runId),
        signal,
        onProgress: report("took over"),
      });
    });
    const idleAfterMs = options.idleAfterMs ?? 60_000;
    this.loop(options.sweepEveryMs ?? 5_000, async () => {
      const owned = await jobRuns(store.client);
      // A run with a registered wake-up is the wake loop's, even once due: one action, one verb.
      const timed = new Set((await waker.pending()).map((wake) => wake.rootRunId));
      const idleSince = Date.now() - idleAfterMs;
      return recover(store, resume, {
        ttlMs: this.ttlMs,
        holder: this.holder(),
        limit: PASS_LIMIT,
        waiting: "skip",
        // A run that failed fails again: it waits for a person (Recover now).
        select: (run) =>
          run.status !== "failed" && run.leaseHolder === null && !run.abandoned && !owned.has(run.runId) && !timed.has(run.runId) && Date.parse(run.updatedAt) < idleSince,
        signal,
        onProgress: report("drove"),
      });
    });
    if (options.daily) {
      const daily = options.daily;
      this.loop(DAY_MS, async () => {
        const line = await daily({ signal });
        if (line) this.log(line);
      });
    }
  }

  get id(): string {
    return this.runner.owner;
  }

  /** Stops the loops (their drives aborted, leases released), then the job runner (grace, then release). */
  async stop(): Promise<void> {
    this.controller.abort(new Error("the worker is stopping"));
    await Promise.all([Promise.all(this.loops), this.runner.stop()]);
  }

  private holder(): string {
    return `${this.id}/p${(this.holders += 1)}`;
  }

  private log(line: string): void {
    this.options.log?.(line);
  }

  /** Runs `pass` every `everyMs` until stop(); a failed pass is logged, and the next one comes. */
  private loop(everyMs: number, pass: () => Promise<RecoverResult | void>): void {
    const signal = this.controller.signal;
    this.loops.push(
      (async () => {
        while (!signal.aborted) {
          try {
            await pass();
          } catch (error) {
            if (!signal.aborted) this.log(`error ${error instanceof Error ? error.message : String(error)}`);
          }
          await new Promise<void>((resolve) => {
            const wake = () => {
              clearTimeout(timer);
              signal.removeEventListener("abort", wake);
              resolve();
            };
            const timer = setTimeout(wake, everyMs);
            signal.addEventListener("abort", wake, { once: true });
          });
        }
      })(),
    );
  }

  private logRun(verb: string, run: RecoveredRun): void {
    // Runs left alone (held elsewhere, finished, still waiting) are not actions.
    if (run.outcome === "leased" || run.outcome === "skipped" || run.outcome === "waiting") return;
    const detail = run.pause ? `: ${run.pause.message}` : run.error ? `: ${run.error}` : "";
    this.log(`${verb} run ${run.runId} ${run.outcome}${detail}`);
  }

  private logJob(event: JobEvent): void {
    switch (event.type) {
      case "claimed":
        return this.log(
          `claimed job ${event.job.jobId} (${event.job.kind}${event.job.runId ? ` ${event.job.runId}` : ""}, attempt ${event.job.attempts} of ${event.job.maxAttempts})`,
        );
      case "done":
        return this.log(`done job ${event.job.jobId} in ${Math.round(event.ms)} ms`);
      case "failed":
        return this.log(`failed job ${event.job.jobId}: ${event.error}`);
      case "lost":
        return this.log(`lost job ${event.job.jobId}: it was queued again under this worker`);
      case "released":
        return this.log(`released jobs ${event.jobIds.join(", ")}`);
      case "requeued":
        return this.log(
          [
            event.requeued.requeued.length > 0 ? `requeued jobs ${event.requeued.requeued.join(", ")} (their runner stopped)` : "",
            event.requeued.interrupted.length > 0 ? `interrupted jobs ${event.requeued.interrupted.join(", ")} (out of attempts)` : "",
          ]
            .filter(Boolean)
            .join("; "),
        );
      case "error":
        return this.log(`error ${event.error}`);
    }
  }
}
