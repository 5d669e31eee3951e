/**
 * Comparing a secret someone sent with the one expected, in time that depends on neither. Both
 * sides are first reduced to HMAC-SHA256 digests under a key random to this process, so the
 * constant-time comparison always sees two 32-byte values: a wrong guess of another length costs
 * the same as one of the right length, and nothing about the secret (its length included) shows.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

const COMPARE_KEY = randomBytes(32);

function digest(text: string): Buffer {
  return createHmac("sha256", COMPARE_KEY).update(text, "utf8").digest();
}

/** Whether `given` equals `expected`, compared in constant time over fixed-length digests. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}
