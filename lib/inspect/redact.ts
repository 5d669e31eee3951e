/**
 * Which recorded values to hide: values under secret-looking keys, and secret-shaped text inside
 * strings (`api_key=` in a URL, `Bearer …`, provider key prefixes such as `sk-…`, AWS key ids, JWTs).
 * A key matches a pattern when, lower-cased and without "-", "_", "." or spaces, it equals the
 * pattern or ends with it: `api_key`, `x-api-key`, `OPENAI_API_KEY`, `access_token` and
 * `Authorization` match; `inputTokens` and `tokenCount` do not.
 * Invariant: the journal keeps raw values; the server passes everything it sends through
 * redactSecrets (app/_server/redaction.ts), so a secret reaches a browser only through "Reveal".
 * Pure and framework-free.
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

/**
 * Secret-shaped text inside strings, found whatever key holds it. Each rule keeps what names the
 * secret (a parameter name, a scheme, a provider's prefix) and masks the rest, so a reader still
 * sees what was there. Parameter names (`api_key=`, `"password": "…"`) are judged by the same key
 * patterns as payload keys.
 */
const PROVIDER_KEYS: ReadonlyArray<{ pattern: RegExp; keep: number | ((match: string) => number) }> = [
  // Anthropic, OpenAI and look-alikes (sk-…, sk-ant-…, sk-proj-…, sk-live-…), Stripe (sk_live_…, rk_test_…).
  { pattern: /\bsk-ant-[A-Za-z0-9_-]{8,}/g, keep: 7 },
  { pattern: /\bsk-[A-Za-z0-9_-]{16,}/g, keep: 3 },
  { pattern: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{8,}/g, keep: (match) => match.indexOf("_", 3) + 1 },
  // GitHub tokens and fine-grained PATs, Slack, GitLab, Google API keys.
  { pattern: /\bgh[pousr]_[A-Za-z0-9]{20,}/g, keep: 4 },
  { pattern: /\bgithub_pat_[A-Za-z0-9_]{20,}/g, keep: 11 },
  { pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, keep: 5 },
  { pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g, keep: 6 },
  { pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g, keep: 4 },
  // AWS access key ids.
  { pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, keep: 4 },
  // JSON Web Tokens: three base64url parts, the first two JSON objects ("eyJ" is `{"`).
  { pattern: /\beyJ[A-Za-z0-9_-]{6,}\.eyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]*/g, keep: 0 },
  // PEM private keys, whole.
  { pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, keep: 0 },
];

/** `Bearer <token>` and `Basic <base64>`: a credential has a digit or a symbol, plain words do not ("Bearer of news"). */
const AUTH_SCHEME = /\b(Bearer|Basic|Token)(\s+)([A-Za-z0-9\-._~+/]{8,}=*)/gi;
/** `name=value` in URLs, query strings, form bodies and command lines. */
const PARAMETER = /([A-Za-z][A-Za-z0-9_.-]{0,63})=([^&\s#"'<>;,]+)/g;
/** `"name": "value"` in JSON text held in a string (a tool's raw output, a logged request). */
const JSON_MEMBER = /"([^"\\]{1,64})"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g;
/** `scheme://user:password@host`. Every part is bounded: a hostile string must not make matching quadratic. */
const USER_INFO = /\b([a-z][a-z0-9+.-]{0,31}:\/\/[^\s/:@]{1,256}:)([^\s/@]{1,256})(@)/gi;

/** A sign of AUTH_SCHEME or a PROVIDER_KEYS rule (case-insensitive: a superset of what they match). */
const MAYBE_TOKEN = /bearer|basic|token|sk-|[spr]k_|gh[pousr]_|github_pat_|xox|glpat-|aiza|akia|asia|eyj|-----begin/i;

function looksLikeCredential(token: string): boolean {
  return /[0-9\-._~+/=]/.test(token) || (/[a-z]/.test(token) && /[A-Z]/.test(token) && token.length >= 16);
}

export interface RedactOptions {
  /** Whether a key (or parameter name) holds a secret; default: the DEFAULT_SECRET_KEYS patterns. */
  isSecret?: (key: string) => boolean;
  /** What replaces one secret; default REDACTED. Given the raw secret so a caller can tell different ones apart. */
  marker?: (secret: string) => string;
}

/**
 * Marks distinct secrets with distinct markers (`•••••• 1`, `•••••• 2`, …) within one answer, so
 * that a diff never shows two different secrets as the same text, nor two equal ones as different.
 * The markers are counters, not hashes: nothing about a secret can be recovered or guessed from them.
 */
export function distinctMarkers(): (secret: string) => string {
  const seen = new Map<string, number>();
  return (secret) => {
    let number = seen.get(secret);
    if (number === undefined) {
      number = seen.size + 1;
      seen.set(secret, number);
    }
    return `${REDACTED} ${number}`;
  };
}

/** `text` with every secret-shaped part masked (see the rules above). Pure; the same text gives the same answer. */
export function maskSecretText(text: string, options: RedactOptions = {}): string {
  const isSecret = options.isSecret ?? defaultMatcher();
  const marker = options.marker ?? (() => REDACTED);
  // Cheap exits first: most strings in a journal are prose or identifiers with none of these signs.
  if (text.length < 8) return text;
  let masked = text;
  if (masked.includes("://")) masked = masked.replace(USER_INFO, (_all, head: string, secret: string, at: string) => `${head}${marker(secret)}${at}`);
  if (masked.includes("="))
    masked = masked.replace(PARAMETER, (all, name: string, value: string) => (isSecret(name) && !value.startsWith(REDACTED) ? `${name}=${marker(value)}` : all));
  if (masked.includes('"')) {
    masked = masked.replace(JSON_MEMBER, (all, name: string, colon: string, value: string) =>
      isSecret(name) && value.length > 0 && !value.startsWith(REDACTED) ? `"${name}"${colon}"${marker(value)}"` : all,
    );
  }
  // One cheap test before the twelve rules below: text with none of their signs is most text.
  if (!MAYBE_TOKEN.test(masked)) return masked;
  masked = masked.replace(AUTH_SCHEME, (all, scheme: string, space: string, token: string) => (looksLikeCredential(token) ? `${scheme}${space}${marker(token)}` : all));
  for (const { pattern, keep } of PROVIDER_KEYS) {
    masked = masked.replace(pattern, (match) => {
      const kept = typeof keep === "number" ? keep : keep(match);
      return `${match.slice(0, kept)}${marker(match.slice(kept))}`;
    });
  }
  return masked;
}

let defaultSecret: ((key: string) => boolean) | undefined;
function defaultMatcher(): (key: string) => boolean {
  return (defaultSecret ??= secretKeyMatcher(DEFAULT_SECRET_KEYS));
}

/** Deeper than this, a value is replaced whole: redaction fails closed rather than copy what it did not read. */
const MAX_DEPTH = 200;

/**
 * A copy of `value` (any JSON-shaped answer: records, states, diffs, outlines, sessions) with the
 * values under secret keys replaced by a marker and secret-shaped text inside strings masked.
 * The server applies it to everything it sends; the journal keeps the raw values, and "Reveal"
 * reads one of them through a privileged endpoint. Keys are kept: they name what was hidden.
 */
export function redactSecrets(value: unknown, options: RedactOptions = {}): unknown {
  const settled: Required<RedactOptions> = { isSecret: options.isSecret ?? defaultMatcher(), marker: options.marker ?? (() => REDACTED) };
  return redactAt(value, settled, 0);
}

function redactAt(value: unknown, options: Required<RedactOptions>, depth: number): unknown {
  if (typeof value === "string") return maskSecretText(value, options);
  if (typeof value !== "object" || value === null) return value;
  if (depth > MAX_DEPTH) return REDACTED;
  // Typed arrays (timelines, packed rows) hold numbers only.
  if (ArrayBuffer.isView(value)) return value;
  if (Array.isArray(value)) return value.map((item) => redactAt(item, options, depth + 1));
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return redactAt((value as { toJSON(): unknown }).toJSON(), options, depth);
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = options.isSecret(key) && item !== null && item !== undefined ? options.marker(secretText(item)) : redactAt(item, options, depth + 1);
  }
  return copy;
}

function secretText(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
}

/** Whether a value shown to a user was redacted (whole, or in part inside a string). */
export function isRedacted(value: unknown): boolean {
  return typeof value === "string" && value.includes(REDACTED);
}

/** The value at a JSON Pointer (RFC 6901) in `value`, or `{ found: false }`. */
export function valueAtPointer(value: unknown, pointer: string): { found: true; value: unknown } | { found: false } {
  if (pointer === "") return { found: true, value };
  if (!pointer.startsWith("/")) return { found: false };
  let current = value;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, key)) return { found: false };
    current = (current as Record<string, unknown>)[key];
  }
  return { found: true, value: current };
}

/** A JSON Pointer from its keys (RFC 6901 escaping). */
export function pointerOf(keys: ReadonlyArray<string | number>): string {
  return keys.map((key) => `/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}
