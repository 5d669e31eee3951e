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
 * canonicalHash (below) buckets values by canonicalEqual without writing them either.
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
    case "bigint":
    case "boolean":
    case "object":
    case "string":
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

// canonicalHash: a 32-bit number for bucketing values by canonicalEqual (realign.ts). Invariant:
// canonicalEqual(a, b) implies canonicalHash(a) === canonicalHash(b); unequal values usually differ,
// and a caller settles equal hashes with canonicalEqual. No text is built, nothing is allocated.
const NULL_HASH = 0x2545f491;
const TRUE_HASH = 0x1b873593;
const FALSE_HASH = 0x0e6546b6;
const NUMBER_SEED = 0x68e31da4;
const ARRAY_SEED = 0x3c6ef372;
const OBJECT_SEED = 0x7f4a7c15;
const float = new Float64Array(1);
const floatWords = new Uint32Array(float.buffer);

/** One step of a multiplicative hash (MurmurHash2's constant). */
export function mixHash(hash: number, value: number): number {
  const mixed = Math.imul(hash ^ value, 0x5bd1e995);
  return mixed ^ (mixed >>> 15);
}

function stringHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 16777619);
  return hash;
}

function numberHash(value: number): number {
  if (!Number.isFinite(value)) return NULL_HASH;
  // -0 is 0 (both write 0); an integer is its own bits, any other number its float's.
  if ((value | 0) === value) return mixHash(NUMBER_SEED, value | 0);
  float[0] = value;
  return mixHash(mixHash(NUMBER_SEED, floatWords[0] as number), floatWords[1] as number);
}

export function canonicalHash(value: unknown): number {
  switch (typeof value) {
    case "string":
      return stringHash(value);
    case "number":
      return numberHash(value);
    case "boolean":
      return value ? TRUE_HASH : FALSE_HASH;
    case "bigint":
      return stringHash(String(value));
    case "object":
      break;
    case "undefined":
    case "function":
    case "symbol":
    default:
      return NULL_HASH;
  }
  if (value === null) return NULL_HASH;
  // A Date equals what its JSON text parses to (a string, or null).
  if (value instanceof Date) return canonicalHash(JSON.parse(scalarText(value)));
  if (Array.isArray(value)) {
    let hash = mixHash(ARRAY_SEED, value.length);
    for (let index = 0; index < value.length; index += 1) hash = mixHash(hash, canonicalHash(value[index]));
    return hash;
  }
  // Members are summed: key order never changes the sum.
  const record = value as Record<string, unknown>;
  let sum = 0;
  let members = 0;
  for (const key in record) {
    if (!hasOwn.call(record, key)) continue;
    const member = record[key];
    if (absent(member)) continue;
    sum = (sum + mixHash(stringHash(key), canonicalHash(member))) | 0;
    members += 1;
  }
  return mixHash(mixHash(OBJECT_SEED, members), sum);
}
