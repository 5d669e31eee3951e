/**
 * The session cookie: HMAC-SHA256 of the token under a secret random to this server process.
 * A cookie therefore proves a sign-in to this process only: it cannot be computed from the
 * token alone (the old unsalted sha256 could), it changes when the token changes, and a restart
 * signs everyone out (they sign in again with the token they hold). No secret is written to disk,
 * which also suits a PostgreSQL-server setup where the inspector has no data folder.
 *
 * The secret lives on globalThis under a registered symbol: proxy.ts and the sign-in route are
 * separate bundles of one process and must agree on it.
 */
import { createHmac, randomBytes } from "node:crypto";

export const SESSION_COOKIE = "backtrack_session";

/** This process's secret, made on first use. */
export function serverSecret(): Buffer {
  const holder = globalThis as unknown as Record<symbol, Buffer | undefined>;
  const key = Symbol.for("backtrack.inspector.sessionSecret");
  return (holder[key] ??= randomBytes(32));
}

/** The cookie value proving a sign-in with `token` to the server holding `secret`. */
export function sessionValue(token: string, secret: Buffer = serverSecret()): string {
  return createHmac("sha256", secret).update(`backtrack-session:${token}`, "utf8").digest("base64url");
}
