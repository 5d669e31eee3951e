/**
 * What the inspector accepts from a URL, checked at the edge before anything reaches the database.
 * Invariants: an id or query value holds no NUL (PostgreSQL text cannot, and the driver's error
 * would carry the SQL and its parameters); a path decodes as UTF-8; a whole number fits the column
 * it is compared with (a record's seq is a PostgreSQL integer). Route handlers (route() in http.ts),
 * pages (page-params.ts) and the proxy share these rules. No `server-only`: proxy.ts imports it.
 */
import { NextResponse } from "next/server";
import { z } from "zod";
import { MAX_ID_LENGTH } from "@/lib/journal/base";

/** PostgreSQL's largest `integer`: a seq, an offset or a limit past it cannot be compared with one. */
export const MAX_INTEGER = 2_147_483_647;

export function hasNul(text: string): boolean {
  return text.includes("\u0000");
}

/** An id taken from a path segment (a run, a session, a job): what the journal could have stored. */
export const idParam = z
  .string()
  .min(1, "must not be empty")
  .max(MAX_ID_LENGTH, `must be at most ${MAX_ID_LENGTH} characters`)
  .refine((text) => !hasNul(text), "must not contain NUL");

/** A whole number from a query string, from `min` to PostgreSQL's integer maximum. */
export function wholeNumber(min: number, max = MAX_INTEGER) {
  return z.coerce.number().int().min(min).max(max);
}

/** A query string text: bounded, without NUL. */
export function queryText(max: number) {
  return z
    .string()
    .min(1)
    .max(max)
    .refine((text) => !hasNul(text), "must not contain NUL");
}

/** The first query parameter (name or value) holding NUL, by name; NUL in a name is reported without it. */
export function nulInQuery(searchParams: URLSearchParams): string | undefined {
  for (const [name, value] of searchParams) {
    if (hasNul(name)) return "a parameter name";
    if (hasNul(value)) return `parameter "${name}"`;
  }
  return undefined;
}

/** Whether every segment of a raw (still encoded) path decodes: `%FF` alone is not UTF-8. */
export function pathDecodes(pathname: string): boolean {
  try {
    for (const segment of pathname.split("/")) decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/**
 * The proxy's answer to a path that does not decode, before Next.js routes it (its own answer is a
 * bare 500): 400 with a typed code for the API, a short 400 page for the pages.
 */
export function undecodablePath(request: { nextUrl: { pathname: string } }): NextResponse | undefined {
  const { pathname } = request.nextUrl;
  if (pathDecodes(pathname)) return undefined;
  const message = "the path does not decode: a percent escape is not UTF-8";
  if (pathname.startsWith("/api/")) {
    return NextResponse.json({ error: { code: "bad_input", message } }, { status: 400, headers: { "cache-control": "no-store" } });
  }
  return new NextResponse(`Bad request: ${message}.\n`, { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
}
