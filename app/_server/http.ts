/**
 * Route handlers' one shape: route() checks the URL's ids and query for NUL, runs the handler, and
 * turns what it throws into `{ error: { code, message } }` with the status of the error's code.
 * Invariant: a 500 never carries an internal message; it says `internal` with a request id, and
 * the server log has the error under the same id.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { NextResponse, type NextRequest } from "next/server";
import type { z } from "zod";
import { BadInputError, isBacktrackError, type ErrorCode } from "@/lib/journal/errors";
import { parseFiniteJson } from "@/lib/journal/jsonl";
import { hasNul, idParam, nulInQuery } from "./url-input";

/** Every code has a status: the compiler refuses a new ErrorCode until it is placed here. */
const STATUS: Record<ErrorCode, number> = {
  bad_input: 400,
  bad_fork: 400,
  bad_try: 400,
  cli: 400,
  invalid_record: 400,
  length_mismatch: 400,
  non_finite_number: 400,
  read_only_state: 400,
  reserved_name: 400,
  not_found: 404,
  already_decided: 409,
  input_mismatch: 409,
  lease_held: 409,
  lease_lost: 409,
  not_waiting: 409,
  paused: 409,
  run_exists: 409,
  trace_conflict: 409,
  import_interrupted: 409,
  session_exists: 409,
  stale_session: 409,
  payload_too_large: 413,
  import_too_large: 413,
  body_too_large: 413,
  unsupported_media_type: 415,
  // A run that cannot be replayed or decided as asked: well-formed, but not possible for this run.
  answer_too_large: 422,
  missing_agent: 422,
  missing_model: 422,
  missing_tools: 422,
  no_memory_context: 422,
  no_recorded_input: 422,
  no_recorded_output: 422,
  // Faults inside a run or a job: internal to the server, so answered as `internal` (see errorResponse).
  max_turns: 500,
  rebuild_mismatch: 500,
  recovery_failed: 500,
  replay_failed: 500,
  resume_failed: 500,
  saga_aborted: 500,
  simulated_crash: 500,
  model_call: 502,
  config: 503,
  database_locked: 503,
  database_unreachable: 503,
  database_owner_lost: 503,
  stopped: 503,
  // The projection pool (lib/pool): full, or a worker that died or ran too long; the next try gets a fresh one.
  pool_busy: 503,
  worker_failed: 503,
  worker_timeout: 503,
  worker_unavailable: 503,
  job_timeout: 504,
};

/** PostgreSQL's data exceptions that only a request's value can cause (NUL in text or JSON, an integer out of range). */
const VALUE_REFUSED = new Set(["22021", "22P05", "22003"]);

type Params = Record<string, string>;
type Handler<P extends Params> = (request: NextRequest, params: P) => Promise<Response> | Response;

/**
 * A route handler: `export const GET = route<{ id: string }>(async (request, { id }) => …)`.
 * Path params are checked as ids (no NUL, at most 256 characters) and the query for NUL before
 * the handler runs; whatever it throws becomes an error response.
 */
export function route<P extends Params = Params>(handler: Handler<P>) {
  return async (request: NextRequest, context: { params: Promise<P> }): Promise<Response> => {
    try {
      const where = nulInQuery(new URL(request.url).searchParams);
      if (where) throw new BadInputError(`${where} holds NUL, which no id or filter can contain`);
      return await handler(request, checkedParams((await context?.params) ?? ({} as P)));
    } catch (error) {
      return errorResponse(error, request);
    }
  };
}

function checkedParams<P extends Params>(params: P): P {
  for (const [name, value] of Object.entries(params)) {
    const parsed = idParam.safeParse(value);
    if (!parsed.success) throw new BadInputError(`${name}: ${parsed.error.issues.map((issue) => issue.message).join("; ")}`);
  }
  return params;
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): NextResponse {
  return NextResponse.json(body, { status, headers: { "cache-control": "no-store", ...headers } });
}

export function errorResponse(error: unknown, request?: Request): NextResponse {
  if (isBacktrackError(error) && STATUS[error.code] !== 500) {
    const retry = retryAfterOf(error);
    return json({ error: { code: error.code, message: error.message } }, STATUS[error.code], retry === undefined ? {} : { "retry-after": String(retry) });
  }
  if (refusedValue(error)) {
    return json({ error: { code: "bad_input", message: "the request holds a value the database refuses (a NUL character, or a number out of range)" } }, 400);
  }
  const requestId = randomUUID();
  const where = request ? ` ${request.method} ${new URL(request.url).pathname}` : "";
  console.error(`[backtrack] request ${requestId}${where} failed:`, error);
  return json({ error: { code: "internal", message: "internal error", requestId } }, 500, { "x-request-id": requestId });
}

/** Seconds a client should wait before trying again, for errors that say (the pool's). */
function retryAfterOf(error: object): number | undefined {
  const seconds = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
  return typeof seconds === "number" && Number.isFinite(seconds) ? Math.max(1, Math.ceil(seconds)) : undefined;
}

/** A driver error (or one it caused) whose SQLSTATE says the value sent was refused. */
function refusedValue(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth += 1) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && VALUE_REFUSED.has(code)) return true;
  }
  return false;
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
  const where = nulIn(body, "body");
  if (where) throw new BadInputError(`${where} holds NUL, which the journal cannot store`);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new BadInputError(parsed.error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`).join("; "));
  return parsed.data;
}

/** The path of the first string (or key) in a JSON value that holds NUL. */
function nulIn(value: unknown, path: string): string | undefined {
  if (typeof value === "string") return hasNul(value) ? path : undefined;
  if (typeof value !== "object" || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (hasNul(key)) return `a key in ${path}`;
    const found = nulIn(item, `${path}.${key}`);
    if (found) return found;
  }
  return undefined;
}

/** The request's query string parsed by `schema`, or a BadInputError naming each problem. */
export function parseQuery<Schema extends z.ZodType>(request: Request, schema: Schema): z.infer<Schema> {
  const parsed = schema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throw new BadInputError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "));
  return parsed.data;
}
