/** JSON responses and errors for route handlers: `{ error: { code, message } }` with the right status. */
import "server-only";
import { NextResponse } from "next/server";
import type { z } from "zod";
import { BadInputError, isBacktrackError } from "@/lib/journal/errors";
import { parseFiniteJson } from "@/lib/journal/jsonl";

const STATUS: Record<string, number> = {
  not_found: 404,
  bad_input: 400,
  invalid_record: 400,
  payload_too_large: 413,
  import_too_large: 413,
  length_mismatch: 400,
  non_finite_number: 400,
  import_interrupted: 409,
  reserved_name: 400,
  database_unreachable: 503,
  database_locked: 503,
  // A run that cannot be replayed or decided as asked: well-formed, but not possible for this run.
  no_recorded_input: 422,
  no_memory_context: 422,
  missing_agent: 422,
  missing_tools: 422,
  not_waiting: 409,
  already_decided: 409,
  run_exists: 409,
  read_only: 403,
};

export function json(body: unknown, status = 200): NextResponse {
  return NextResponse.json(body, { status, headers: { "cache-control": "no-store" } });
}

export function errorResponse(error: unknown): NextResponse {
  if (isBacktrackError(error)) {
    return json({ error: { code: error.code, message: error.message } }, STATUS[error.code] ?? 400);
  }
  console.error(error);
  return json({ error: { code: "internal", message: error instanceof Error ? error.message : String(error) } }, 500);
}

export function notFound(message: string): NextResponse {
  return json({ error: { code: "not_found", message } }, 404);
}

/** The request's JSON body parsed by `schema`, or a BadInputError naming each problem. */
export async function parseBody<Schema extends z.ZodType>(request: Request, schema: Schema): Promise<z.infer<Schema>> {
  let body: unknown;
  try {
    // 1e400 would parse to Infinity and be stored as null: refused (NonFiniteNumberError, 400).
    body = parseFiniteJson(await request.text());
  } catch (error) {
    if (isBacktrackError(error)) throw error;
    throw new BadInputError("the request body must be JSON");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new BadInputError(parsed.error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`).join("; "));
  return parsed.data;
}

/** The request's query string parsed by `schema`, or a BadInputError naming each problem. */
export function parseQuery<Schema extends z.ZodType>(request: Request, schema: Schema): z.infer<Schema> {
  const parsed = schema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throw new BadInputError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "));
  return parsed.data;
}
