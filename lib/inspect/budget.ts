/**
 * Byte budgets for answers: how many items of a list fit in a response. The HTTP API pages its
 * lists by count and by size, so no default answer exceeds RESPONSE_BUDGET_BYTES whatever the
 * payloads weigh (a run's records can be up to the payload limit each). Pure.
 */

/** Most bytes of items one default answer carries; the envelope around them stays well under 1 MB more. */
export const RESPONSE_BUDGET_BYTES = 4 * 1024 * 1024;

/** The UTF-8 size of `value`'s JSON text. */
export function jsonBytes(value: unknown): number {
  const text = JSON.stringify(value);
  return text === undefined ? 0 : Buffer.byteLength(text, "utf8");
}

/**
 * How many of `items`, taken in order, fit in `budget` bytes of JSON: at least one when there is
 * one (an answer always moves forward), so a single item over the budget is sent alone.
 */
export function countWithin(items: readonly unknown[], budget: number = RESPONSE_BUDGET_BYTES): number {
  let used = 0;
  for (let index = 0; index < items.length; index += 1) {
    used += jsonBytes(items[index]) + 1;
    if (used > budget && index > 0) return index;
  }
  return items.length;
}
