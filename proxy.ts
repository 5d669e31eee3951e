/**
 * Access control in front of every route, static files included: allowed Host, sign-in
 * (BACKTRACK_TOKEN), same-origin mutations, read-only mode, and the limit on wrong tokens.
 * See app/_server/access.ts. Next.js 16 always runs the proxy in the Node.js runtime (it refuses
 * a runtime setting here), so node:crypto is available to it.
 */
import { NextResponse, type NextRequest } from "next/server";
import { accessSettings, decide, SESSION_COOKIE } from "./app/_server/access";
import { attemptLimiter, clientAddress } from "./app/_server/attempts";
import { allowedHosts } from "./app/_server/hosts";
import { withSecurityHeaders } from "./app/_server/security-headers";
import { undecodablePath } from "./app/_server/url-input";

export function proxy(request: NextRequest) {
  const decision = decide(
    {
      method: request.method,
      pathname: request.nextUrl.pathname,
      search: request.nextUrl.search,
      host: request.headers.get("host"),
      origin: request.headers.get("origin"),
      secFetchSite: request.headers.get("sec-fetch-site"),
      authorization: request.headers.get("authorization"),
      sessionCookie: request.cookies.get(SESSION_COOKIE)?.value,
      client: clientAddress(request.headers.get("x-forwarded-for")),
    },
    { ...accessSettings(), allowedHosts: allowedHosts(), limiter: attemptLimiter() },
  );
  if (decision.allow) {
    // Next.js answers a path it cannot decode with a bare 500: say what is wrong first (after the
    // Host and the token are checked, so a stranger learns nothing here).
    const undecodable = undecodablePath(request);
    return undecodable ? withSecurityHeaders(undecodable) : NextResponse.next();
  }
  if (decision.status === 401 && decision.signIn && decision.host && !request.nextUrl.pathname.startsWith("/api/")) {
    // On the host the browser used (request.url names the one the server listens as, localhost
    // for 127.0.0.1, and a cookie set there would not come back here), as the allowed-host rule
    // matched it: never the raw header.
    return withSecurityHeaders(NextResponse.redirect(new URL(decision.signIn, `${request.nextUrl.protocol}//${decision.host}`)));
  }
  const response = NextResponse.json({ error: { code: decision.code, message: decision.message } }, { status: decision.status });
  if (decision.status === 429) response.headers.set("retry-after", String(decision.retryAfter));
  return withSecurityHeaders(response);
}

export const config = {
  // Every path: a Host not allowed is refused on static files too (they hold no secret, but a
  // rebinding page should get nothing from this server).
  matcher: ["/:path*"],
};
