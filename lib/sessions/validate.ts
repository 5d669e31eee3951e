/**
 * Input checks for the session service (zod). Bad input is refused with BadInputError before any
 * write, never stored half-way: ids and keys are bounded text without NUL, values are JSON.
 */
import { z } from "zod";
import { MAX_ID_LENGTH } from "../journal/base";
import { BadInputError } from "../journal/errors";
import { scopeOf } from "./state";
import type { JsonValue, State, StateDelta } from "./types";

const MAX_KEY_LENGTH = 512;

const noNul = (text: string) => !text.includes("\u0000");

export const idSchema = z.string().min(1).max(MAX_ID_LENGTH).refine(noNul, "must not contain NUL");

// A key is its scope prefix plus a name: "app:" alone names nothing.
const keySchema = z
  .string()
  .min(1)
  .max(MAX_KEY_LENGTH)
  .refine(noNul, "must not contain NUL")
  .refine((key) => !/^(temp|app|user):$/.test(key), "a scope prefix needs a name after it");

/**
 * A JSON value: strings, finite numbers, booleans, null, arrays and plain objects of them. The same
 * rule as z.json(), checked by one walk: z.json() was most of an append's own time in JavaScript.
 */
function isJson(value: unknown, depth = 0): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value !== "object" || depth > MAX_JSON_DEPTH) return false;
  if (Array.isArray(value)) return value.every((item) => isJson(item, depth + 1));
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  for (const item of Object.values(value)) if (!isJson(item, depth + 1)) return false;
  return true;
}

const MAX_JSON_DEPTH = 512;
const jsonSchema = z.custom<JsonValue>((value) => isJson(value), "must be a JSON value (strings, finite numbers, booleans, null, arrays and plain objects)");

// Snapshots are jsonb, which cannot hold U+0000 in a string; an escaped backslash before "u0000" is fine.
const NUL_ESCAPE = /(^|[^\\])(\\\\)*\\u0000/;
const deltaSchema = z.record(keySchema, jsonSchema).refine((delta) => !NUL_ESCAPE.test(JSON.stringify(delta)), "values must not contain NUL characters");

const timestampSchema = z.union([z.string(), z.number(), z.date()]).transform((value, context) => {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) {
    context.addIssue({ code: "custom", message: "must be an ISO 8601 date, epoch milliseconds or a Date" });
    return z.NEVER;
  }
  return date.toISOString();
});

const eventSchema = z
  .object({
    id: idSchema.optional(),
    author: z.string().min(1).max(MAX_ID_LENGTH).refine(noNul, "must not contain NUL"),
    invocationId: z.string().max(MAX_ID_LENGTH).refine(noNul, "must not contain NUL").optional(),
    content: jsonSchema.optional(),
    timestamp: timestampSchema.optional(),
    actions: z.object({ stateDelta: deltaSchema.optional() }).strict().optional(),
  })
  .strict();

const createSchema = z
  .object({
    app: idSchema,
    user: idSchema,
    id: idSchema.optional(),
    state: deltaSchema
      .refine((state) => Object.values(state).every((value) => value !== null), "initial values must not be null (null deletes a key)")
      .refine(
        (state) => Object.keys(state).every((key) => scopeOf(key) === "session"),
        "create() takes session keys only: set app: and user: keys through an event's stateDelta; temp: keys are never persisted",
      )
      .optional(),
  })
  .strict();

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => `${issue.path.length ? issue.path.map(String).join(".") : what}: ${issue.message}`);
  throw new BadInputError(`invalid ${what}: ${issues.join("; ")}`, { cause: result.error });
}

export interface CheckedEvent {
  id: string | undefined;
  author: string;
  invocationId: string;
  content: JsonValue;
  timestamp: string | undefined;
  stateDelta: StateDelta;
  /** The delta's JSON text, written once: its size counts toward the event limit, and without temp: keys it is what is stored. */
  stateDeltaText: string;
}

export function checkEvent(value: unknown): CheckedEvent {
  return plainEvent(value) ?? schemaEvent(value);
}

/** @internal checkEvent through zod alone (the fast path's reference, for tests). */
export function schemaEvent(value: unknown): CheckedEvent {
  const event = parse(eventSchema, value, "event");
  return {
    id: event.id,
    author: event.author,
    invocationId: event.invocationId ?? "",
    content: (event.content ?? null) as JsonValue,
    timestamp: event.timestamp,
    stateDelta: (event.actions?.stateDelta ?? {}) as StateDelta,
    stateDeltaText: JSON.stringify(event.actions?.stateDelta ?? {}),
  };
}

export function checkCreate(value: unknown): { app: string; user: string; id: string | undefined; state: State } {
  const input = parse(createSchema, value, "session");
  return { app: input.app, user: input.user, id: input.id, state: (input.state ?? {}) as StateDelta };
}

export function checkId(value: unknown, what = "session id"): string {
  return isId(value) ? value : parse(idSchema, value, what);
}

// Built once: constructing a zod schema costs more than an append's own work in JavaScript.
const indexSchema = z.number().int().min(0);

export function checkIndex(value: unknown, what: string): number {
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : parse(indexSchema, value, what);
}

/*
 * The append's fast path. zod's safeParse of an event took most of an append's own JavaScript time
 * (about 60 µs of it under load), so input that plainly satisfies the schemas above is recognised by
 * the plain tests below, and everything else goes through zod, which decides and words the error.
 * Invariant: a plain test accepts only what its schema accepts, with the same result
 * (tests/sessions/validate.test.ts compares them on valid and invalid inputs).
 */
const EVENT_KEYS = new Set(["id", "author", "invocationId", "content", "timestamp", "actions"]);
const SCOPE_ONLY = /^(temp|app|user):$/;

function isText(value: unknown, min: number, max: number): value is string {
  return typeof value === "string" && value.length >= min && value.length <= max && !value.includes("\u0000");
}

function isId(value: unknown): value is string {
  return isText(value, 1, MAX_ID_LENGTH);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && Object.getOwnPropertySymbols(value).length === 0;
}

/** @internal The event as checkEvent returns it, or undefined: not plainly valid (zod decides). */
export function plainEvent(value: unknown): CheckedEvent | undefined {
  if (!isPlainObject(value)) return undefined;
  for (const key in value) if (!EVENT_KEYS.has(key)) return undefined;
  const { id, author, invocationId, content, timestamp, actions } = value;
  if (id !== undefined && !isId(id)) return undefined;
  if (!isText(author, 1, MAX_ID_LENGTH)) return undefined;
  if (invocationId !== undefined && !isText(invocationId, 0, MAX_ID_LENGTH)) return undefined;
  if (content !== undefined && !isJson(content)) return undefined;
  let stateDelta: StateDelta = {};
  let stateDeltaText = "{}";
  if (actions !== undefined) {
    if (!isPlainObject(actions)) return undefined;
    for (const key in actions) if (key !== "stateDelta") return undefined;
    if (actions.stateDelta !== undefined) {
      const checked = plainDelta(actions.stateDelta);
      if (!checked) return undefined;
      ({ delta: stateDelta, text: stateDeltaText } = checked);
    }
  }
  let at: string | undefined;
  if (timestamp !== undefined) {
    at = plainTimestamp(timestamp);
    if (at === undefined) return undefined;
  }
  return { id, author, invocationId: invocationId ?? "", content: (content ?? null) as JsonValue, timestamp: at, stateDelta, stateDeltaText };
}

/** A copy of the delta (as z.record gives one) and its JSON text, or undefined. */
function plainDelta(value: unknown): { delta: StateDelta; text: string } | undefined {
  if (!isPlainObject(value)) return undefined;
  const delta: StateDelta = {};
  for (const key of Object.keys(value)) {
    if (key === "__proto__" || !isText(key, 1, MAX_KEY_LENGTH) || SCOPE_ONLY.test(key)) return undefined;
    const item = value[key];
    if (!isJson(item)) return undefined;
    delta[key] = item as JsonValue;
  }
  const text = JSON.stringify(delta);
  return NUL_ESCAPE.test(text) ? undefined : { delta, text };
}

function plainTimestamp(value: unknown): string | undefined {
  if (typeof value === "number" && !Number.isFinite(value)) return undefined;
  if (typeof value !== "string" && typeof value !== "number" && !(value instanceof Date)) return undefined;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
