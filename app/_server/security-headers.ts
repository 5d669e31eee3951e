/**
 * Headers every response carries (next.config.ts sets them on pages, API answers, errors and
 * static files; proxy.ts on the answers it makes itself). No other site may frame a page (the
 * Approve and Deny buttons must not be clickable through someone else's page), browsers must not
 * guess a content type, and a link followed off-site does not carry this site's URL.
 * No imports: next.config.ts loads this file before anything else is set up.
 */
export const SECURITY_HEADERS: ReadonlyArray<{ key: string; value: string }> = [
  { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "same-origin" },
];

export function withSecurityHeaders<T extends { headers: Headers }>(response: T): T {
  for (const { key, value } of SECURITY_HEADERS) response.headers.set(key, value);
  return response;
}
