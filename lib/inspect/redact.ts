/**
 * Which payload values to hide by default: values under secret-looking keys. A key matches a
 * pattern when, lower-cased and without "-", "_", "." or spaces, it equals the pattern or ends
 * with it: `api_key`, `x-api-key`, `OPENAI_API_KEY`, `access_token` and `Authorization` match;
 * `inputTokens` and `tokenCount` do not. Only the viewer hides them: the journal keeps them.
 */
export const DEFAULT_SECRET_KEYS: readonly string[] = ["api_key", "authorization", "password", "token", "secret", "private_key"];

function normalise(key: string): string {
  return key.toLowerCase().replace(/[-_.\s]/g, "");
}

export function secretKeyMatcher(patterns: readonly string[] = DEFAULT_SECRET_KEYS): (key: string) => boolean {
  const normalised = patterns.map(normalise).filter((pattern) => pattern.length > 0);
  return (key) => {
    const candidate = normalise(key);
    return normalised.some((pattern) => candidate === pattern || candidate.endsWith(pattern));
  };
}

/** Patterns from a comma-separated setting (BACKTRACK_REDACT_KEYS); the defaults when unset or empty. */
export function parseSecretKeys(setting: string | undefined | null): string[] {
  const patterns = (setting ?? "")
    .split(",")
    .map((pattern) => pattern.trim())
    .filter((pattern) => pattern.length > 0);
  return patterns.length > 0 ? patterns : [...DEFAULT_SECRET_KEYS];
}

export const REDACTED = "••••••";

/** A copy of `value` with the values under secret keys replaced (for one-line excerpts, which have no "Reveal"). */
export function redactValue(value: unknown, isSecret: (key: string) => boolean, depth = 0): unknown {
  if (depth > 64 || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, isSecret, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = isSecret(key) && item !== null && item !== undefined ? REDACTED : redactValue(item, isSecret, depth + 1);
  return copy;
}
