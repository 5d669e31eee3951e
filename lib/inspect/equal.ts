/**
 * canonicalEqual(a, b): whether two values have the same canonical JSON (lib/journal/canonical.ts),
 * decided by walking them, without writing any text or hashing. A diff compares the arguments and
 * the output of every decision point; building canonical text for each and hashing it cost more
 * than stringifying every record.
 *
 * Invariant: canonicalEqual(a, b) === (canonicalJson(a) === canonicalJson(b)) for every value
 * canonicalJson accepts. So, as in JSON: key order never matters, array order does; a member
 * whose value is undefined, a function or a symbol is absent, and such an array element, like
 * NaN and ±Infinity anywhere, is null; -0 is 0. A Date is its JSON text; a bigint throws, as there.
 * Imports nothing: the diff page's client code reaches this module (node:crypto must stay out).
 */

const hasOwn = Object.prototype.hasOwnProperty;

export function canonicalEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) return equalObjects(a, b);
  if (typeof a === "bigint" || typeof b === "bigint" || a instanceof Date || b instanceof Date) return scalarText(a) === scalarText(b);
  // Two different scalars (or a scalar and an object) write the same text only when both write null.
  return writesNull(a) && writesNull(b);
}

/** Written as null where it is a value or an array element. */
function writesNull(value: unknown): boolean {
  switch (typeof value) {
    case "undefined":
    case "function":
    case "symbol":
      return true;
    case "number":
      return !Number.isFinite(value);
    default:
      return value === null;
  }
}

/** A Date's or a scalar's canonical JSON (JSON.stringify's, null for what it leaves out). */
function scalarText(value: unknown): string {
  return JSON.stringify(value) ?? "null";
}

/** Left out where it is an object member. */
function absent(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

function equalObjects(a: object, b: object): boolean {
  // A Date writes a string or null, which no other object or array writes.
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && scalarText(a) === scalarText(b);
  const isArray = Array.isArray(a);
  if (isArray !== Array.isArray(b)) return false;
  if (isArray) {
    const left = a as unknown[];
    const right = b as unknown[];
    if (left.length !== right.length) return false;
    for (let index = 0; index < left.length; index += 1) if (!canonicalEqual(left[index], right[index])) return false;
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  // Every member A writes must be one B writes, with an equal value; then B must write no more.
  let members = 0;
  for (const key in left) {
    if (!hasOwn.call(left, key)) continue;
    const value = left[key];
    if (absent(value)) continue;
    if (!hasOwn.call(right, key)) return false;
    const other = right[key];
    if (absent(other) || !canonicalEqual(value, other)) return false;
    members += 1;
  }
  for (const key in right) if (hasOwn.call(right, key) && !absent(right[key])) members -= 1;
  return members === 0;
}
