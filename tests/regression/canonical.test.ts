/** canonicalJson is written directly (for speed): it must give exactly what sorting keys and JSON.stringify give. */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalJson, stableHash } from "@/lib/journal/canonical";

/** The reference: copy with keys inserted in sorted order, then JSON.stringify. */
function reference(value: unknown): string {
  const sortKeys = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(sortKeys);
    if (item !== null && typeof item === "object" && !(item instanceof Date)) {
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(item).sort()) {
        const inner = (item as Record<string, unknown>)[key];
        if (inner !== undefined) sorted[key] = sortKeys(inner);
      }
      return sorted;
    }
    return item;
  };
  return JSON.stringify(sortKeys(value)) ?? "null";
}

describe("canonicalJson", () => {
  it("matches the reference on hand-picked edge cases", () => {
    const cases: unknown[] = [
      null,
      undefined,
      0,
      -0,
      1e21,
      1.5e-7,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      "",
      'quote " backslash \\ newline \n tab \t nul \u0000 emoji 🦀 lone \ud800',
      true,
      [],
      {},
      [undefined, () => 1, Symbol("s"), null, [1, [2]]],
      { b: 1, a: { d: [3, { z: 1, y: undefined, x: () => 0 }], c: null } },
      { "10": "ten", "2": "two", b: 1, "!": 0, "01": "not an index", "4294967295": "too big", "4294967294": "biggest index", a: 2 },
      { when: new Date("2026-11-29T10:00:00.000Z"), nested: [new Date(0)] },
      Object.assign(Object.create(null) as object, { z: 1, a: 2 }),
    ];
    for (const value of cases) expect(canonicalJson(value)).toBe(reference(value));
  });

  it("matches the reference on random values, and hashes ignore key order", () => {
    let seed = 11;
    const random = (limit: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % limit;
    };
    const keys = ["a", "b", "Z", "_", "10", "9", "0", "00", "k ey", "é", "amount", "orderId"];
    const make = (depth: number): unknown => {
      switch (random(depth > 3 ? 5 : 8)) {
        case 0:
          return null;
        case 1:
          return random(1000) - 500 + random(100) / 7;
        case 2:
          return keys[random(keys.length)];
        case 3:
          return random(2) === 0;
        case 4:
          return undefined;
        case 5:
          return Array.from({ length: random(4) }, () => make(depth + 1));
        default: {
          const object: Record<string, unknown> = {};
          for (let index = random(5); index > 0; index -= 1) object[keys[random(keys.length)] as string] = make(depth + 1);
          return object;
        }
      }
    };
    for (let round = 0; round < 2000; round += 1) {
      const value = make(0);
      expect(canonicalJson(value)).toBe(reference(value));
    }
    expect(stableHash({ orderId: "123", amount: 500 })).toBe(stableHash({ amount: 500, orderId: "123" }));
    expect(stableHash({ a: 1 })).toBe(createHash("sha256").update('{"a":1}').digest("hex").slice(0, 16));
  });
});
