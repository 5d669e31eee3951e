/**
 * `backtrack worker [--concurrency N] [--kinds a,b] [--db URL] [--config PATH]`: a long-running
 * process that runs jobs from the shared queue, wakes sleeping runs, takes over runs whose lease
 * expired and drives unfinished runs nobody holds (lib/jobs/worker.ts). One line per action on
 * stdout. SIGTERM (or SIGINT) stops it within 10 s, its jobs and leases given back. With
 * BACKTRACK_RETENTION (e.g. `30d`) it also prunes older runs and sessions at start and once a day.
 */
import type { Command } from "commander";
import { loadRegistry } from "../../config/file";
import { demoRegistry } from "../../demo/registry";
import { jobHandlers } from "../../jobs/kinds";
import { Worker, type WorkerOptions } from "../../jobs/worker";
import type { Journal } from "../../journal/ports";
import { pruneRuns, retentionFromEnv } from "../../retention/index";
import { CliError, common, printLine, withStore, type CommonOptions } from "../context";

interface WorkerCommandOptions extends CommonOptions {
  concurrency?: string;
  kinds?: string;
  config?: string;
}

/** A positive whole number from a flag or a setting; undefined when absent. */
function whole(text: string | undefined, name: string): number | undefined {
  if (text === undefined || text === "") return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new CliError(`${name} must be a positive whole number, got "${text}"`);
  return value;
}

/** The worker's timings from the environment (docs/operations.md lists them). */
function settings(env: NodeJS.ProcessEnv): Partial<WorkerOptions> {
  return {
    leaseTtlMs: whole(env.BACKTRACK_LEASE_TTL_MS, "BACKTRACK_LEASE_TTL_MS"),
    heartbeatMs: whole(env.BACKTRACK_JOB_HEARTBEAT_MS, "BACKTRACK_JOB_HEARTBEAT_MS"),
    backoffMs: whole(env.BACKTRACK_JOB_BACKOFF_MS, "BACKTRACK_JOB_BACKOFF_MS"),
    maxAttempts: whole(env.BACKTRACK_JOB_MAX_ATTEMPTS, "BACKTRACK_JOB_MAX_ATTEMPTS"),
    timeoutMs: whole(env.BACKTRACK_JOB_TIMEOUT_MS, "BACKTRACK_JOB_TIMEOUT_MS"),
    idleAfterMs: whole(env.BACKTRACK_WORKER_IDLE_MS, "BACKTRACK_WORKER_IDLE_MS"),
  };
}

/** The daily prune of BACKTRACK_RETENTION (unset: none); a bad duration is bad input (exit 2) at start. */
function retention(store: Journal, env: NodeJS.ProcessEnv): WorkerOptions["daily"] {
  const olderThan = retentionFromEnv(env);
  if (olderThan === undefined) return undefined;
  return async () => {
    const pruned = await pruneRuns(store, { olderThan });
    return `retention: pruned ${pruned.runs} run(s), ${pruned.records} record(s) and ${pruned.sessions} session(s) older than ${env.BACKTRACK_RETENTION?.trim()}`;
  };
}

function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off("SIGTERM", stop);
      process.off("SIGINT", stop);
      resolve(signal);
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
}

export function registerWorker(program: Command): void {
  common(
    program
      .command("worker")
      .description("run jobs, wake sleeping runs, take over runs whose holder died, and drive unfinished runs nobody holds, until SIGTERM")
      .option("--concurrency <n>", "jobs at once (default: BACKTRACK_JOB_CONCURRENCY, then 2)")
      .option("--kinds <list>", "take only these job kinds, comma-separated (default: every kind: replay, resume, recover, …)")
      .option("--config <path>", "backtrack.config.ts with your agents and models (default: BACKTRACK_CONFIG, then backtrack.config.* here)"),
    { json: false },
  ).action(async (options: WorkerCommandOptions) => {
    const concurrency = whole(options.concurrency ?? process.env.BACKTRACK_JOB_CONCURRENCY, "--concurrency");
    const kinds = options.kinds?.split(",").map((kind) => kind.trim());
    const timings = settings(process.env);
    await withStore(options, async (store) => {
      const registry = await loadRegistry(demoRegistry(), options.config);
      const known = Object.keys(jobHandlers(store, registry));
      const unknown = (kinds ?? []).filter((kind) => !known.includes(kind));
      if (kinds?.length === 0 || unknown.length > 0) throw new CliError(`--kinds: unknown job kind "${unknown[0] ?? ""}" (known: ${known.join(", ")})`);
      const log = (line: string) => printLine(`${new Date().toISOString()} ${line}`);
      const daily = retention(store, process.env);
      const stopping = stopSignal();
      const worker = new Worker({ store, registry, concurrency, kinds, ...timings, daily, log });
      log(`worker ${worker.id} started on ${store.client.target} (kinds: ${(kinds ?? known).join(", ")}; concurrency ${worker.runner.info.concurrency})`);
      const signal = await stopping;
      log(`${signal}: stopping (running jobs get 5 s, then go back to the queue)`);
      await worker.stop();
      log(`worker ${worker.id} stopped`);
    });
  });
}
