/**
 * Which Host headers this inspector answers (DNS rebinding): a page on attacker.example whose
 * name is made to resolve to 127.0.0.1 reaches the server with `Host: attacker.example`, so a
 * request is served only when its Host names this server. Pure: the environment in, rules out.
 *
 * The list is the loopback names (localhost, 127.0.0.1, [::1]), the name the server is bound to
 * (`backtrack start --host` hands it over as BACKTRACK_BOUND_HOST; a bare `next start -H` is read
 * from the origin Next.js records on listening), and the comma-separated host[:port] names of
 * BACKTRACK_ALLOWED_HOSTS. Loopback names are always kept: no other site can make a browser
 * send them. A rule without a port allows any port; `*` allows every host (behind a proxy that
 * checks Host itself).
 */

export interface HostRule {
  /** Lower case; an IPv6 address in brackets, as in a Host header. */
  hostname: string;
  /** Digits, or undefined for any port. */
  port?: string;
}

export type AllowedHosts = HostRule[] | "any";

export const LOOPBACK_HOSTS: readonly HostRule[] = [{ hostname: "localhost" }, { hostname: "127.0.0.1" }, { hostname: "[::1]" }];

/** `host`, `host:port`, `[v6]` or `[v6]:port` split into its parts; null when it is none of these. */
export function parseHost(text: string): HostRule | null {
  const value = text.trim().toLowerCase();
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(value);
  if (!match?.[1]) return null;
  return match[2] === undefined ? { hostname: match[1] } : { hostname: match[1], port: match[2] };
}

/** A bound address as a Host header names it: IPv6 in brackets. */
function boundHost(address: string): HostRule | null {
  const bare = address.trim();
  if (!bare) return null;
  return parseHost(bare.includes(":") && !bare.startsWith("[") ? `[${bare}]` : bare);
}

/** The host the server is bound to: BACKTRACK_BOUND_HOST, else the origin `next start` recorded. */
function boundHostFrom(env: Record<string, string | undefined>): HostRule | null {
  if (env.BACKTRACK_BOUND_HOST) return boundHost(env.BACKTRACK_BOUND_HOST);
  // Private to Next.js (server/lib/start-server.js sets it when listening): a fallback only, for
  // `next start -H NAME` run by hand. Without -H, or with 0.0.0.0, it says localhost.
  const origin = env.__NEXT_PRIVATE_ORIGIN;
  if (!origin) return null;
  try {
    return { hostname: new URL(origin).hostname.toLowerCase() };
  } catch {
    return null;
  }
}

export function allowedHosts(env: Record<string, string | undefined> = process.env): AllowedHosts {
  const listed = (env.BACKTRACK_ALLOWED_HOSTS ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (listed.includes("*")) return "any";
  const rules: HostRule[] = [...LOOPBACK_HOSTS];
  const bound = boundHostFrom(env);
  if (bound) rules.push(bound);
  for (const entry of listed) {
    const rule = parseHost(entry);
    // A malformed entry allows nothing (it could never match a well-formed Host header).
    if (rule) rules.push(rule);
  }
  return rules;
}

/**
 * The Host header rebuilt from the rule it matched (lower case, checked characters only), or
 * null when no rule allows it. Redirects use this value, never the raw header.
 */
export function matchHost(header: string | null, allowed: AllowedHosts): string | null {
  if (header === null) return null;
  const host = parseHost(header);
  if (!host) return null;
  const known = allowed === "any" || allowed.some((rule) => rule.hostname === host.hostname && (rule.port === undefined || rule.port === host.port));
  if (!known) return null;
  return host.port === undefined ? host.hostname : `${host.hostname}:${host.port}`;
}
