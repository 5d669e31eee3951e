/**
 * Who may do what, decided per request (used by proxy.ts). Pure: the request's facts and the
 * settings in, a decision out, so it is unit-tested without a server. No "server-only" import:
 * proxy.ts runs outside React's server environment.
 *
 * - BACKTRACK_TOKEN set: every page and API call needs the session cookie (from /sign-in) or
 *   `Authorization: Bearer <token>`.
 * - Mutating calls (anything but GET/HEAD/OPTIONS) must come from this origin: a browser's
 *   cross-site POST is refused. BACKTRACK_READ_ONLY=1 refuses them all.
 * - Privileged reads (`…/reveal`: one secret, unredacted) are treated like mutations: same origin
 *   only, refused in read-only mode, and behind the token when one is set.
 */
import { createHash, timingSafeEqual } from "node:crypto";

export const SESSION_COOKIE = "backtrack_session";

export interface AccessSettings {
  token?: string;
  readOnly: boolean;
}

export interface RequestFacts {
  method: string;
  pathname: string;
  search?: string;
  host: string | null;
  origin: string | null;
  secFetchSite: string | null;
  authorization: string | null;
  sessionCookie: string | undefined;
}

export type AccessDecision =
  | { allow: true }
  | { allow: false; status: 401 | 403; code: "unauthorized" | "cross_origin" | "read_only"; message: string; signIn?: string };

/** Reading a secret unredacted ("Reveal"): a privileged read, refused in read-only mode and across origins. */
const REVEAL_PATH = /^\/api\/.+\/reveal$/;
export const REVEAL_READ_ONLY = "this inspector is read-only (BACKTRACK_READ_ONLY=1): redacted values cannot be revealed";

export function isPrivilegedRead(pathname: string): boolean {
  return REVEAL_PATH.test(pathname);
}

const PUBLIC_PATHS = ["/sign-in", "/api/sign-in", "/api/health", "/favicon.ico"];
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function accessSettings(env: Record<string, string | undefined> = process.env): AccessSettings {
  const token = env.BACKTRACK_TOKEN?.trim();
  return { token: token ? token : undefined, readOnly: env.BACKTRACK_READ_ONLY === "1" || env.BACKTRACK_READ_ONLY === "true" };
}

/** The cookie value proving a sign-in: a hash of the token, so the token itself is never stored in the browser. */
export function sessionValue(token: string): string {
  return createHash("sha256").update(`backtrack-session:${token}`).digest("hex");
}

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function isSignedIn(facts: Pick<RequestFacts, "authorization" | "sessionCookie">, token: string): boolean {
  if (facts.authorization?.startsWith("Bearer ") && same(facts.authorization.slice(7), token)) return true;
  return facts.sessionCookie !== undefined && same(facts.sessionCookie, sessionValue(token));
}

/** Whether a request comes from a page of this very origin (or from no browser at all). */
export function isSameOrigin(facts: Pick<RequestFacts, "host" | "origin" | "secFetchSite">): boolean {
  if (facts.origin) {
    try {
      return facts.host !== null && new URL(facts.origin).host === facts.host;
    } catch {
      return false;
    }
  }
  // No Origin: not a browser's cross-site form or fetch (they send one), unless the browser says otherwise.
  return facts.secFetchSite === null || facts.secFetchSite === "same-origin" || facts.secFetchSite === "none";
}

export function decide(facts: RequestFacts, settings: AccessSettings): AccessDecision {
  const isPublic = PUBLIC_PATHS.includes(facts.pathname) || facts.pathname.startsWith("/_next/");
  const mutating = !SAFE_METHODS.has(facts.method.toUpperCase());
  const privileged = isPrivilegedRead(facts.pathname);
  if ((mutating || privileged) && !isSameOrigin(facts)) {
    return { allow: false, status: 403, code: "cross_origin", message: "this action is accepted only from the inspector's own pages" };
  }
  if (settings.token && !isPublic && !isSignedIn(facts, settings.token)) {
    const next = `${facts.pathname}${facts.search ?? ""}`;
    return {
      allow: false,
      status: 401,
      code: "unauthorized",
      message: "sign in first: this inspector is protected by BACKTRACK_TOKEN (send it as a Bearer token, or sign in at /sign-in)",
      signIn: `/sign-in?next=${encodeURIComponent(next)}`,
    };
  }
  if (mutating && settings.readOnly && facts.pathname !== "/api/sign-in") {
    return { allow: false, status: 403, code: "read_only", message: "this inspector is read-only (BACKTRACK_READ_ONLY=1): replays, approvals, answers, recovery and imports are off" };
  }
  if (privileged && settings.readOnly) return { allow: false, status: 403, code: "read_only", message: REVEAL_READ_ONLY };
  return { allow: true };
}

/** A safe place to go after signing in: a path on this site, never another origin. */
export function safeNext(next: string | null | undefined): string {
  return next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/runs";
}
