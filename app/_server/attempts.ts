/**
 * A limit on wrong tokens (sign-in form and Bearer header alike): at most PER_CLIENT failures per
 * client address in a sliding minute, and at most PER_SERVER failures in all. The client address
 * is the one Next.js reports in x-forwarded-for (the socket's, unless the client sent the header
 * itself), so a client can forge it; the server-wide ceiling is what bounds a guesser who changes
 * it on every try. While limited, even the right token is refused: otherwise the limit would only
 * slow the answer to a wrong guess. Only failures count, so a signed-in user never hits it.
 *
 * One limiter serves the whole process (proxy.ts and the sign-in route are separate bundles of
 * one process): it lives on globalThis under a registered symbol.
 */

export const WINDOW_MS = 60_000;
export const PER_CLIENT = 10;
export const PER_SERVER = 100;

export class AttemptLimiter {
  private readonly failures = new Map<string, number[]>();
  private all: number[] = [];

  constructor(
    private readonly now: () => number = Date.now,
    private readonly limits = { perClient: PER_CLIENT, perServer: PER_SERVER, windowMs: WINDOW_MS },
  ) {}

  /** Seconds until `client` may try again; 0 when it may try now. */
  retryAfter(client: string): number {
    const now = this.now();
    this.forgetBefore(now - this.limits.windowMs);
    const own = this.failures.get(client) ?? [];
    const waits: number[] = [];
    // The oldest failure that keeps the count at its limit decides when a slot frees.
    if (own.length >= this.limits.perClient) waits.push(own[own.length - this.limits.perClient]! + this.limits.windowMs - now);
    if (this.all.length >= this.limits.perServer) waits.push(this.all[this.all.length - this.limits.perServer]! + this.limits.windowMs - now);
    return waits.length === 0 ? 0 : Math.max(1, Math.ceil(Math.max(...waits) / 1000));
  }

  fail(client: string): void {
    const now = this.now();
    this.forgetBefore(now - this.limits.windowMs);
    this.failures.set(client, [...(this.failures.get(client) ?? []), now]);
    this.all.push(now);
  }

  /** A right token clears the client's own failures (not the server-wide count). */
  succeed(client: string): void {
    this.failures.delete(client);
  }

  /** Keeps the map as small as the failures of the last window (at most PER_SERVER clients). */
  private forgetBefore(cutoff: number): void {
    this.all = this.all.filter((time) => time > cutoff);
    for (const [client, times] of this.failures) {
      const recent = times.filter((time) => time > cutoff);
      if (recent.length === 0) this.failures.delete(client);
      else this.failures.set(client, recent);
    }
  }
}

/** The process's limiter. */
export function attemptLimiter(): AttemptLimiter {
  const holder = globalThis as unknown as Record<symbol, AttemptLimiter | undefined>;
  const key = Symbol.for("backtrack.inspector.attemptLimiter");
  return (holder[key] ??= new AttemptLimiter());
}

/** The client's address as Next.js reports it (first x-forwarded-for entry), for the limiter's key. */
export function clientAddress(forwardedFor: string | null): string {
  return forwardedFor?.split(",")[0]?.trim() || "unknown";
}
