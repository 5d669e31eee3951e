import { NextResponse, type NextRequest } from "next/server";
import { accessSettings, safeNext, sessionValue, SESSION_COOKIE } from "@/app/_server/access";

export const dynamic = "force-dynamic";

/** The sign-in form posts here: a right token sets the session cookie; a wrong one goes back to the form. */
export async function POST(request: NextRequest) {
  const form = await request.formData().catch(() => null);
  const token = String(form?.get("token") ?? "");
  const next = safeNext(String(form?.get("next") ?? ""));
  const { token: expected } = accessSettings();
  if (!expected) return NextResponse.redirect(new URL(next, request.url), 303);
  if (token !== expected) {
    return NextResponse.redirect(new URL(`/sign-in?error=1&next=${encodeURIComponent(next)}`, request.url), 303);
  }
  const response = NextResponse.redirect(new URL(next, request.url), 303);
  response.cookies.set(SESSION_COOKIE, sessionValue(expected), { httpOnly: true, sameSite: "strict", path: "/" });
  return response;
}
