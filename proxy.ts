/** Access control in front of every route: sign-in (BACKTRACK_TOKEN), same-origin mutations, read-only mode. See app/_server/access.ts. */
import { NextResponse, type NextRequest } from "next/server";
import { accessSettings, decide, SESSION_COOKIE } from "./app/_server/access";
import { undecodablePath } from "./app/_server/url-input";

export function proxy(request: NextRequest) {
  // Next.js answers a path it cannot decode with a bare 500: say what is wrong first.
  const undecodable = undecodablePath(request);
  if (undecodable) return undecodable;
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
    },
    accessSettings(),
  );
  if (decision.allow) return NextResponse.next();
  if (decision.signIn && !request.nextUrl.pathname.startsWith("/api/")) {
    // On the host the browser used: request.url names the one the server listens as (localhost for
    // 127.0.0.1), and the session cookie set there would not be sent back here.
    const host = request.headers.get("host");
    return NextResponse.redirect(new URL(decision.signIn, host ? `${request.nextUrl.protocol}//${host}` : request.url));
  }
  return NextResponse.json({ error: { code: decision.code, message: decision.message } }, { status: decision.status });
}

export const config = {
  matcher: ["/((?!_next/static|_next/image).*)"],
};
