import { NextResponse, type NextRequest } from "next/server";
import { accessSettings, safeNext, sessionValue, SESSION_COOKIE, tooManyAttempts } from "@/app/_server/access";
import { attemptLimiter, clientAddress } from "@/app/_server/attempts";
import { allowedHosts, matchHost } from "@/app/_server/hosts";
import { route } from "@/app/_server/http";
import { sameSecret } from "@/lib/store/same-secret";

export const dynamic = "force-dynamic";

/**
 * A redirect to a path on this site with a relative Location: `request.url` names the host the
 * server listens as (`localhost`), not the one the browser used (`127.0.0.1`), and a cookie set for
 * one is not sent to the other, so an absolute redirect signed the user out again.
 */
function seeOther(path: string): NextResponse {
  return new NextResponse(null, { status: 303, headers: { location: path } });
}

/** This request's origin, on the Host as the allowed-host rule matched it (the proxy refused any other). */
function ownOrigin(request: NextRequest): string {
  return `${request.nextUrl.protocol}//${matchHost(request.headers.get("host"), allowedHosts()) ?? "localhost"}`;
}

/**
 * The sign-in form posts here: a right token sets the session cookie; a wrong one goes back to the
 * form and counts against the client (attempts.ts), which is answered 429 past the limit.
 */
export const POST = route(async (request: NextRequest) => {
  const form = await request.formData().catch(() => null);
  const token = String(form?.get("token") ?? "");
  const next = safeNext(form?.get("next"), ownOrigin(request));
  const { token: expected } = accessSettings();
  if (!expected) return seeOther(next);
  const client = clientAddress(request.headers.get("x-forwarded-for"));
  const limiter = attemptLimiter();
  const wait = limiter.retryAfter(client);
  if (wait > 0) {
    const limited = tooManyAttempts(wait);
    return NextResponse.json({ error: { code: limited.code, message: limited.message } }, { status: 429, headers: { "retry-after": String(wait) } });
  }
  if (!sameSecret(token, expected)) {
    limiter.fail(client);
    return seeOther(`/sign-in?error=1&next=${encodeURIComponent(next)}`);
  }
  limiter.succeed(client);
  const response = seeOther(next);
  response.cookies.set(SESSION_COOKIE, sessionValue(expected), { httpOnly: true, sameSite: "strict", path: "/" });
  return response;
});
