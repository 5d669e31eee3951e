/**
 * The projection pool: worker threads (piscina) that build what is too heavy for a server's one
 * thread — outlines, timelines, diffs, waterfalls, search texts — from pages the server reads.
 *
 * Invariants:
 * - the pool is sized from the cores (one thread a core, at a lower priority than the thread
 *   that answers requests) and its queue is bounded: a task that finds it full fails at once
 *   with PoolBusyError (the server answers 503 with Retry-After) instead of waiting without end;
 * - a task that runs past its time limit is stopped with its worker (WorkerTimeoutError), and a
 *   worker that dies fails its tasks (WorkerFailedError); either way piscina starts a fresh
 *   worker, and the next task runs on it;
 * - a task's own typed error comes back with its code and message (PoolTaskError); any other
 *   error of a task is a bug, raised as a plain Error (the server logs it and answers `internal`).
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import type { Transferable } from "node:worker_threads";
import { Piscina } from "piscina";
import type { Envelope, TaskInput, TaskName, TaskOutput } from "./envelope";
import { PoolBusyError, PoolTaskError, WorkerFailedError, WorkerTimeoutError, WorkerUnavailableError } from "./errors";

export interface PoolOptions {
  /** The built worker (scripts/build-workers.mjs); default defaultWorkerFile(). */
  filename?: string;
  /** Worker threads; default one a core. */
  threads?: number;
  /** Tasks that may wait for a thread; default 64. */
  queue?: number;
  /** A task's time limit in milliseconds, unless the task says otherwise; default 60 s. */
  taskTimeoutMs?: number;
  /** How much lower the workers' priority is than the server's thread (Unix nice); default 5. */
  niceIncrement?: number;
}

/** Where `npm run build` puts the worker: dist-workers/projection.mjs under the app's folder. */
export function defaultWorkerFile(root = process.cwd()): string {
  return process.env.BACKTRACK_WORKER_FILE ?? join(root, "dist-workers", "projection.mjs");
}

function positive(value: string | undefined, fallback: number): number {
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : fallback;
}

/** Options from the environment: BACKTRACK_POOL_THREADS, BACKTRACK_POOL_QUEUE, BACKTRACK_POOL_TASK_MS. */
export function poolOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): PoolOptions {
  return {
    threads: positive(env.BACKTRACK_POOL_THREADS, availableParallelism()),
    queue: positive(env.BACKTRACK_POOL_QUEUE, 64),
    taskTimeoutMs: positive(env.BACKTRACK_POOL_TASK_MS, 60_000),
  };
}

export interface RunOptions {
  transfer?: Transferable[];
  /** This task's time limit (default: the pool's). */
  timeoutMs?: number;
}

export class ProjectionPool {
  private readonly piscina: Piscina;
  readonly queueLimit: number;
  readonly taskTimeoutMs: number;

  constructor(options: PoolOptions = {}) {
    const filename = options.filename ?? defaultWorkerFile();
    if (!existsSync(filename)) throw new WorkerUnavailableError(`the projection worker is not built (${filename} is missing): run npm run build`);
    const threads = Math.max(1, options.threads ?? availableParallelism());
    this.queueLimit = Math.max(1, options.queue ?? 64);
    this.taskTimeoutMs = options.taskTimeoutMs ?? 60_000;
    this.piscina = new Piscina({
      filename,
      minThreads: 1,
      maxThreads: threads,
      maxQueue: this.queueLimit,
      idleTimeout: 60_000,
      niceIncrement: options.niceIncrement ?? 5,
    });
    // A worker that dies between tasks is replaced; nothing waits on it, so nothing is lost.
    this.piscina.on("error", (error: unknown) => console.error("[backtrack] a projection worker failed between tasks:", error));
  }

  /** The live worker threads (tests stop one to check that its task fails and the next succeeds). */
  get threads() {
    return this.piscina.threads;
  }

  get queueSize(): number {
    return this.piscina.queueSize;
  }

  async run<Name extends TaskName>(name: Name, input: TaskInput<Name>, options: RunOptions = {}): Promise<TaskOutput<Name>> {
    if (this.piscina.queueSize >= this.queueLimit) throw new PoolBusyError(this.piscina.queueSize);
    const limit = options.timeoutMs ?? this.taskTimeoutMs;
    const signal = AbortSignal.timeout(limit);
    let envelope: Envelope<TaskOutput<Name>>;
    try {
      envelope = await this.piscina.run(input, { name, signal, transferList: options.transfer as never });
    } catch (error) {
      if (signal.aborted) throw new WorkerTimeoutError(name, limit);
      if (error instanceof Error && /queue is at limit/i.test(error.message)) throw new PoolBusyError(this.piscina.queueSize);
      throw new WorkerFailedError(name, { cause: error });
    }
    if (envelope.ok) return envelope.value;
    if (envelope.code === "internal") throw new Error(`projection task ${name} failed: ${envelope.message}`);
    throw new PoolTaskError(envelope.code, envelope.message, name, envelope.fields ?? {});
  }

  async close(): Promise<void> {
    await this.piscina.close({ force: true });
  }
}
