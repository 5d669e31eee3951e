/** In-process run leases for MemStore (the reference Leaser): a map of holder and expiry time. */
import type { Leaser } from "./ports";

export class MemLeases implements Leaser {
  private readonly held = new Map<string, { holder: string; expiresAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async acquireLease(runId: string, holder: string, ttlMs: number): Promise<boolean> {
    const current = this.held.get(runId);
    if (current && current.holder !== holder && current.expiresAt > this.now()) return false;
    this.held.set(runId, { holder, expiresAt: this.now() + ttlMs });
    return true;
  }

  async renewLease(runId: string, holder: string, ttlMs: number): Promise<boolean> {
    // Still ours (even if expired) means nobody took it over since: extending it is safe.
    if (this.held.get(runId)?.holder !== holder) return false;
    this.held.set(runId, { holder, expiresAt: this.now() + ttlMs });
    return true;
  }

  async releaseLease(runId: string, holder: string): Promise<void> {
    if (this.held.get(runId)?.holder === holder) this.held.delete(runId);
  }

  /** Drops a run's lease whoever holds it (the run is deleted); whether there was one. */
  drop(runId: string): boolean {
    return this.held.delete(runId);
  }

  /** Whether the run's lease expired without a release. */
  abandoned(runId: string): boolean {
    const current = this.held.get(runId);
    return current !== undefined && current.expiresAt <= this.now();
  }

  /** The live holder of a run's lease, or null. */
  holderOf(runId: string): string | null {
    const current = this.held.get(runId);
    return current && current.expiresAt > this.now() ? current.holder : null;
  }
}
