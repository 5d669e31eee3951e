/**
 * Server-side redaction: every page payload and API answer that carries recorded data goes through
 * `redacted` before it is serialised (lib/inspect/redact.ts decides what is secret; the patterns come
 * from BACKTRACK_REDACT_KEYS). Invariant: a raw secret leaves this server only through the reveal
 * endpoint, which proxy.ts treats as a privileged read.
 */
import "server-only";
import { distinctMarkers, parseSecretKeys, redactSecrets, secretKeyMatcher } from "@/lib/inspect/redact";

let cached: { setting: string | undefined; isSecret: (key: string) => boolean } | undefined;

/** The secret-key matcher for the current BACKTRACK_REDACT_KEYS (rebuilt only when the setting changes). */
export function serverSecretKeys(): (key: string) => boolean {
  const setting = process.env.BACKTRACK_REDACT_KEYS;
  if (!cached || cached.setting !== setting) cached = { setting, isSecret: secretKeyMatcher(parseSecretKeys(setting)) };
  return cached.isSecret;
}

/**
 * `body` with its secrets masked. `distinct`: different secrets get different markers within this
 * answer (a diff must not show two different secrets as equal), equal ones the same marker.
 */
export function redacted<T>(body: T, options: { distinct?: boolean } = {}): T {
  return redactSecrets(body, { isSecret: serverSecretKeys(), ...(options.distinct ? { marker: distinctMarkers() } : {}) }) as T;
}
