/**
 * Who may do what, decided per request (used by proxy.ts). Pure: the request's facts and the
 * settings in, a decision out, so it is unit-tested without a server. No "server-only" import:
 * proxy.ts runs outside React's server environment.
 *
 * - BACKTRACK_TOKEN set: every page and API call needs the session cookie (from /sign-in) or
 *   `Authorization: Bearer <token>`.
 * - Mutating calls (anything but GET/HEAD/OPTIONS) must come from this origin: a browser's
 *   cross-site POST is refused. BACKTRACK_READ_ONLY=1 refuses them all.
 * - Every request, static files included, must name an allowed Host (hosts.ts): 403 otherwise.
 * - Wrong Bearer tokens count against the client's attempts (attempts.ts): 429 past the limit.
 * - Tokens and cookies are compared as fixed-length HMACs (lib/store/same-secret.ts).
 * - Privileged reads (`…/reveal`: one secret, unredacted) are treated like mutations: same origin
 *   only, refused in read-only mode, and behind the token when one is set.
 */
import { sameSecret } from "@/lib/store/same-secret";
import type { AttemptLimiter } from "./attempts";
import { LOOPBACK_HOSTS, matchHost, type AllowedHosts } from "./hosts";
import { SESSION_COOKIE, sessionValue } from "./session";

export { SESSION_COOKIE, sessionValue };

export interface AccessSettings {
  token?: string;
  /** BACKTRACK_INGEST_TOKEN: a Bearer token good for OTLP ingest (/v1/traces) alone. */
  ingestToken?: string;
  readOnly: boolean;
  /** The Host headers served (see hosts.ts); the loopback names when not given. */
  allowedHosts?: AllowedHosts;
  /** Counts wrong Bearer tokens (see attempts.ts); no limit when not given. */
  limiter?: AttemptLimiter;
  /** The session cookie's key (see session.ts); this process's secret when not given. */
  secret?: Buffer;
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
  /** The client's address, the attempt limiter's key. */
  client?: string;
}

export type AccessDenial =
  | { allow: false; status: 403; code: "host_not_allowed" | "cross_origin" | "read_only"; message: string }
  | { allow: false; status: 401; code: "unauthorized"; message: string; signIn?: string; host?: string }
  | { allow: false; status: 429; code: "too_many_attempts"; message: string; retryAfter: number };

export type AccessDecision = { allow: true } | AccessDenial;

// The icon and the link-preview card (public/) hold nothing of the journal: the sign-in page shows them too.
const PUBLIC_PATHS = ["/sign-in", "/api/sign-in", "/api/health", "/favicon.ico", "/icon.svg", "/og.png"];

/** Reading a secret unredacted ("Reveal"): a privileged read, refused in read-only mode and across origins. */
const REVEAL_PATH = /^\/api\/.+\/reveal$/;
export const REVEAL_READ_ONLY = "this inspector is read-only (BACKTRACK_READ_ONLY=1): redacted values cannot be revealed";

export function isPrivilegedRead(pathname: string): boolean {
  return REVEAL_PATH.test(pathname);
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Where signing in leads when `next` is missing or not a page of this site. */
export const DEFAULT_NEXT = "/runs";

export function accessSettings(env: Record<string, string | undefined> = process.env): AccessSettings {
  const token = env.BACKTRACK_TOKEN?.trim();
  const ingestToken = env.BACKTRACK_INGEST_TOKEN?.trim();
  return {
    token: token ? token : undefined,
    ...(ingestToken ? { ingestToken } : {}),
    readOnly: env.BACKTRACK_READ_ONLY === "1" || env.BACKTRACK_READ_ONLY === "true",
  };
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

export function tooManyAttempts(retryAfter: number): AccessDenial {
  return { allow: false, status: 429, code: "too_many_attempts", message: `too many wrong tokens from this client: try again in ${retryAfter} s`, retryAfter };
}

/** The token check of a request that is not public: signed in, limited, or sent to sign in. */
function checkToken(facts: RequestFacts, settings: AccessSettings & { token: string }, host: string): AccessDecision {
  if (facts.sessionCookie !== undefined && sameSecret(facts.sessionCookie, sessionValue(settings.token, settings.secret))) return { allow: true };
  const client = facts.client ?? "unknown";
  const bearer = facts.authorization?.startsWith("Bearer ") ? facts.authorization.slice(7) : undefined;
  if (bearer !== undefined) {
    // Limited before comparing: a right token answered while limited would end the limit's use.
    const wait = settings.limiter?.retryAfter(client) ?? 0;
    if (wait > 0) return tooManyAttempts(wait);
    if (sameSecret(bearer, settings.token)) {
      settings.limiter?.succeed(client);
      return { allow: true };
    }
    settings.limiter?.fail(client);
  }
  const next = `${facts.pathname}${facts.search ?? ""}`;
  return {
    allow: false,
    status: 401,
    code: "unauthorized",
    message: "sign in first: this inspector is protected by BACKTRACK_TOKEN (send it as a Bearer token, or sign in at /sign-in)",
    signIn: `/sign-in?next=${encodeURIComponent(next)}`,
    host,
  };
}

/** The OTLP/HTTP traces endpoint: exporters send Bearer tokens, never a cookie or an Origin. */
export const INGEST_PATH = "/v1/traces";

/**
 * Ingest: a Bearer token equal to BACKTRACK_INGEST_TOKEN or BACKTRACK_TOKEN when either is set;
 * open (to allowed Hosts) when neither is, except in read-only mode, which ingests only with a token.
 */
function decideIngest(facts: RequestFacts, settings: AccessSettings, host: string): AccessDecision {
  const tokens = [settings.ingestToken, settings.token].filter((token): token is string => token !== undefined);
  if (tokens.length === 0) {
    if (!settings.readOnly) return { allow: true };
    return { allow: false, status: 403, code: "read_only", message: "this inspector is read-only (BACKTRACK_READ_ONLY=1): set BACKTRACK_INGEST_TOKEN to accept traces" };
  }
  const client = facts.client ?? "unknown";
  const bearer = facts.authorization?.startsWith("Bearer ") ? facts.authorization.slice(7) : undefined;
  if (bearer !== undefined) {
    const wait = settings.limiter?.retryAfter(client) ?? 0;
    if (wait > 0) return tooManyAttempts(wait);
    if (tokens.some((token) => sameSecret(bearer, token))) {
      settings.limiter?.succeed(client);
      return { allow: true };
    }
    settings.limiter?.fail(client);
  }
  return { allow: false, status: 401, code: "unauthorized", message: "send BACKTRACK_INGEST_TOKEN (or BACKTRACK_TOKEN) as a Bearer token to export traces here", host };
}

export function decide(facts: RequestFacts, settings: AccessSettings): AccessDecision {
  const host = matchHost(facts.host, settings.allowedHosts ?? [...LOOPBACK_HOSTS]);
  if (host === null) {
    return { allow: false, status: 403, code: "host_not_allowed", message: "this Host is not one this inspector answers to: add it to BACKTRACK_ALLOWED_HOSTS" };
  }
  const isPublic = PUBLIC_PATHS.includes(facts.pathname) || facts.pathname.startsWith("/_next/");
  const mutating = !SAFE_METHODS.has(facts.method.toUpperCase());
  const privileged = isPrivilegedRead(facts.pathname);
  // Against the Host as its rule matched it (lower case), as browsers write Origin.
  if ((mutating || privileged) && !isSameOrigin({ ...facts, host })) {
    return { allow: false, status: 403, code: "cross_origin", message: "this action is accepted only from the inspector's own pages" };
  }
  if (facts.pathname === INGEST_PATH) return decideIngest(facts, settings, host);
  if (settings.token && !isPublic) {
    const verdict = checkToken(facts, { ...settings, token: settings.token }, host);
    if (!verdict.allow) return verdict;
  }
  if (mutating && settings.readOnly && facts.pathname !== "/api/sign-in") {
    return {
      allow: false,
      status: 403,
      code: "read_only",
      message: "this inspector is read-only (BACKTRACK_READ_ONLY=1): replays, approvals, answers, recovery and imports are off",
    };
  }
  if (privileged && settings.readOnly) return { allow: false, status: 403, code: "read_only", message: REVEAL_READ_ONLY };
  return { allow: true };
}

/**
 * A safe place to go after signing in: `next` resolved against this site's origin, kept only if
 * that origin is unchanged. URL parsing does what a browser does with a Location (drops tabs and
 * newlines, reads `\` as `/`), so `/\t/evil.example` is judged as the `//evil.example` it
 * becomes; the path is rebuilt from the parsed URL, so no control character reaches a header.
 */
export function safeNext(next: unknown, origin = "http://localhost"): string {
  if (typeof next !== "string" || next === "") return DEFAULT_NEXT;
  try {
    const base = new URL(origin);
    const url = new URL(next, base);
    // A path beginning `//` would be read as another host when sent back as a relative Location.
    if (url.origin !== base.origin || url.pathname.startsWith("//")) return DEFAULT_NEXT;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return DEFAULT_NEXT;
  }
}
