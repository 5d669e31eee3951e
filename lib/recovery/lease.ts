/**
 * lease(store, runId, drive): holds an exclusive, renewed lease on a run while `drive` runs.
 * The lease is renewed every third of its TTL; when a renewal fails (another holder took the
 * run over after an expiry, or the store is unreachable) the drive's AbortSignal fires and
 * lease() rejects with LeaseLostError once the drive has stopped. A crashed holder never
 * releases: its lease expires after the TTL and another process may take the run.
 * A lease is efficiency, not safety: at-most-once tools rest on `attempt` records.
 */
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import { BadInputError, ConfigError } from "../journal/errors";
import { isLeaser, type Leaser } from "../journal/ports";
import { LeaseHeldError, LeaseLostError } from "./errors";

export const DEFAULT_LEASE_TTL_MS = 30_000;

export interface LeaseOptions {
  /** How long the lease lasts without a renewal (the seed's WithLeaseTTL). Default 30 s. */
  ttlMs?: number;
  /** Who holds it; default: this host, process and a random suffix. */
  holder?: string;
  /** Cancels the drive from outside too. */
  signal?: AbortSignal;
}

/** A holder name unique to this process (a killed process's successor gets another). */
export function defaultHolder(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

export function leaseTtl(ttlMs: number | undefined): number {
  const ttl = ttlMs ?? DEFAULT_LEASE_TTL_MS;
  if (typeof ttl !== "number" || !Number.isFinite(ttl) || ttl <= 0) throw new BadInputError(`a lease TTL must be a positive number of milliseconds, got ${String(ttlMs)}`);
  return ttl;
}

export async function lease<T>(store: object, runId: string, drive: (signal: AbortSignal) => Promise<T>, options: LeaseOptions = {}): Promise<T> {
  const ttlMs = leaseTtl(options.ttlMs);
  if (!isLeaser(store)) throw new ConfigError("lease() needs a store that implements Leaser (acquireLease, renewLease, releaseLease)");
  const leaser: Leaser = store;
  const holder = options.holder ?? defaultHolder();
  if (!(await leaser.acquireLease(runId, holder, ttlMs))) throw new LeaseHeldError(runId);

  const controller = new AbortController();
  const outer = options.signal;
  const forward = () => controller.abort(outer?.reason);
  if (outer?.aborted) forward();
  outer?.addEventListener("abort", forward, { once: true });

  let lost: LeaseLostError | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const renew = async () => {
    let renewed = false;
    let cause: unknown;
    try {
      renewed = await leaser.renewLease(runId, holder, ttlMs);
    } catch (error) {
      cause = error;
    }
    if (stopped) return;
    if (renewed) {
      timer = setTimeout(() => void renew(), ttlMs / 3);
      return;
    }
    lost = new LeaseLostError(runId, holder, cause === undefined ? undefined : { cause });
    controller.abort(lost);
  };
  timer = setTimeout(() => void renew(), ttlMs / 3);

  try {
    const value = await drive(controller.signal);
    if (lost) throw lost;
    return value;
  } catch (error) {
    if (lost) throw lost;
    throw error;
  } finally {
    stopped = true;
    clearTimeout(timer);
    outer?.removeEventListener("abort", forward);
    if (!lost) await leaser.releaseLease(runId, holder).catch(() => undefined);
  }
}
