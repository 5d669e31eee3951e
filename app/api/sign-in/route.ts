import { NextResponse, type NextRequest } from "next/server";
import { accessSettings, safeNext, sessionValue, SESSION_COOKIE } from "@/app/_server/access";
import { route } from "@/app/_server/http";

export const dynamic = "force-dynamic";

/**
 * A redirect to a path on this site with a relative Location: `request.url` names the host the
 * server listens as (`localhost`), not the one the browser used (`127.0.0.1`), and a cookie set for
 * one is not sent to the other, so an absolute redirect signed the user out again.
 */
function seeOther(path: string): NextResponse {
  return new NextResponse(null, { status: 303, headers: { location: path } });
}

/** The sign-in form posts here: a right token sets the session cookie; a wrong one goes back to the form. */
export const POST = route(async (request: NextRequest) => {
  const form = await request.formData().catch(() => null);
  const token = String(form?.get("token") ?? "");
  const next = safeNext(String(form?.get("next") ?? ""));
  const { token: expected } = accessSettings();
  if (!expected) return seeOther(next);
  if (token !== expected) return seeOther(`/sign-in?error=1&next=${encodeURIComponent(next)}`);
  const response = seeOther(next);
  response.cookies.set(SESSION_COOKIE, sessionValue(expected), { httpOnly: true, sameSite: "strict", path: "/" });
  return response;
});
