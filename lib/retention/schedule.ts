/**
 * Retention on a schedule: `BACKTRACK_RETENTION=30d` makes a long-running process (the worker)
 * prune once a day. startRetention prunes at once, then every `every` milliseconds; a failed pass
 * is reported and the next one runs on time. stop() waits for a pass in progress.
 */
import type { Journal } from "../journal/ports";
import { parseDuration } from "./duration";
import { pruneRuns, type PruneOptions, type PruneResult } from "./prune";

export const RETENTION_EVERY_MS = 86_400_000;

/** The retention BACKTRACK_RETENTION asks for, in milliseconds; undefined when unset or empty. */
export function retentionFromEnv(env: Record<string, string | undefined> = process.env): number | undefined {
  const text = env.BACKTRACK_RETENTION?.trim();
  return text ? parseDuration(text) : undefined;
}

export interface RetentionOptions extends Omit<PruneOptions, "dryRun" | "now"> {
  /** Milliseconds between passes (default a day). */
  every?: number;
  onPruned?: (result: PruneResult) => void;
  onError?: (error: unknown) => void;
}

export interface Retention {
  /** Stops the schedule; resolves when a pass in progress has ended. */
  stop(): Promise<void>;
}

export function startRetention(store: Journal, options: RetentionOptions): Retention {
  const every = options.every ?? RETENTION_EVERY_MS;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let current: Promise<void> = Promise.resolve();
  const pass = async () => {
    try {
      const result = await pruneRuns(store, options);
      options.onPruned?.(result);
    } catch (error) {
      options.onError?.(error);
    }
  };
  const schedule = () => {
    if (stopped) return;
    current = pass().then(() => {
      if (stopped) return;
      timer = setTimeout(schedule, every);
      // A schedule alone must not keep a process alive.
      timer.unref?.();
    });
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}
