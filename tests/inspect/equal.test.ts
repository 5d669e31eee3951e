/** canonicalEqual decides exactly what comparing canonical JSON texts decides, without writing them. */
import { describe, expect, it } from "vitest";
import { canonicalJson } from "@/lib/journal/canonical";
import { canonicalEqual, canonicalHash } from "@/lib/inspect/equal";

const textEqual = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

function expectAgrees(a: unknown, b: unknown, equal: boolean): void {
  expect(textEqual(a, b)).toBe(equal);
  expect(canonicalEqual(a, b)).toBe(equal);
  expect(canonicalEqual(b, a)).toBe(equal);
}

describe("canonicalEqual", () => {
  it("ignores key order, at every depth", () => {
    expectAgrees({ account: "a", amount: 5 }, { amount: 5, account: "a" }, true);
    expectAgrees({ a: { x: 1, y: [{ p: 1, q: 2 }] }, b: 2 }, { b: 2, a: { y: [{ q: 2, p: 1 }], x: 1 } }, true);
    expectAgrees({ "10": 1, "2": 2, b: 3 }, { b: 3, "2": 2, "10": 1 }, true);
  });

  it("keeps array order, and arrays are not objects", () => {
    expectAgrees([1, 2], [2, 1], false);
    expectAgrees([1, 2], [1, 2, 3], false);
    expectAgrees([[1, 2]], [[1, 2]], true);
    expectAgrees([], {}, false);
    expectAgrees({ 0: "a" }, ["a"], false);
  });

  it("finds a difference in a nested value, a missing member or an extra one", () => {
    expectAgrees({ a: { b: { c: 1 } } }, { a: { b: { c: 2 } } }, false);
    expectAgrees({ a: 1 }, { a: 1, b: 2 }, false);
    expectAgrees({ a: 1, b: 2 }, { a: 1, c: 2 }, false);
    expectAgrees({ a: "1" }, { a: 1 }, false);
    expectAgrees({ a: true }, { a: 1 }, false);
    expectAgrees({ a: null }, { a: {} }, false);
    expectAgrees({ a: null }, {}, false);
  });

  it("treats undefined, NaN, Infinity and -0 as JSON writes them", () => {
    // Members that JSON leaves out.
    expectAgrees({ a: 1, b: undefined }, { a: 1 }, true);
    expectAgrees({ a: 1, f: () => 0, s: Symbol("s") }, { a: 1 }, true);
    expectAgrees({ a: undefined }, { a: null }, false);
    // Elements and values that JSON writes as null.
    expectAgrees([undefined, () => 0, Symbol("s")], [null, null, null], true);
    expectAgrees([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY], [null, null, null], true);
    expectAgrees({ a: Number.NaN }, { a: null }, true);
    expectAgrees({ a: Number.NaN }, {}, false);
    expectAgrees(undefined, null, true);
    expectAgrees(Number.NaN, Number.NaN, true);
    expectAgrees(Number.NaN, 0, false);
    expectAgrees(-0, 0, true);
    expectAgrees([-0], [0], true);
    expectAgrees(null, 0, false);
    expectAgrees(null, "", false);
    expectAgrees(null, false, false);
    expectAgrees("null", null, false);
    expectAgrees(1e21, 1e21, true);
    expectAgrees(0.1 + 0.2, 0.3, false);
  });

  it("ignores inherited and symbol-keyed members, as Object.keys does", () => {
    const withParent = Object.assign(Object.create({ inherited: 1 }) as object, { a: 1 });
    expectAgrees(withParent, { a: 1 }, true);
    expectAgrees({ a: 1, [Symbol("s")]: 2 }, { a: 1 }, true);
    expectAgrees(Object.assign(Object.create(null) as object, { z: 1, a: 2 }), { a: 2, z: 1 }, true);
  });

  it("compares Dates by their JSON text", () => {
    const when = "2026-11-29T10:00:00.000Z";
    expectAgrees(new Date(when), new Date(when), true);
    expectAgrees(new Date(when), new Date(0), false);
    expectAgrees({ at: new Date(when) }, { at: when }, true);
    expectAgrees(new Date(Number.NaN), null, true);
    expectAgrees(new Date(when), {}, false);
    expectAgrees(new Date(when), [when], false);
  });

  it("agrees with canonical JSON on random pairs, equal and not", () => {
    let seed = 23;
    const random = (limit: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % limit;
    };
    const keys = ["a", "b", "Z", "10", "9", "0", "amount", "orderId"];
    const leaves: unknown[] = [null, undefined, 0, -0, 1, 2.5, Number.NaN, Number.POSITIVE_INFINITY, "", "a", "null", true, false];
    const make = (depth: number): unknown => {
      const choice = random(depth > 2 ? 3 : 5);
      if (choice < 2) return leaves[random(leaves.length)];
      if (choice === 2) return random(3) - 1;
      if (choice === 3) return Array.from({ length: random(3) }, () => make(depth + 1));
      const object: Record<string, unknown> = {};
      for (let index = random(4); index > 0; index -= 1) object[keys[random(keys.length)] as string] = make(depth + 1);
      return object;
    };
    // A copy with every object's keys in reverse order, and some values swapped for others.
    const variant = (value: unknown, changes: number): unknown => {
      if (changes > 0 && random(6) === 0) return make(2);
      if (Array.isArray(value)) return value.map((item) => variant(item, changes));
      if (value && typeof value === "object") {
        const copy: Record<string, unknown> = {};
        for (const key of Object.keys(value).reverse()) copy[key] = variant((value as Record<string, unknown>)[key], changes);
        return copy;
      }
      return value;
    };
    let equal = 0;
    let sameHash = 0;
    for (let round = 0; round < 4000; round += 1) {
      const value = make(0);
      const other = variant(value, round % 2);
      const expected = textEqual(value, other);
      if (expected) equal += 1;
      expect(canonicalEqual(value, other)).toBe(expected);
      expect(canonicalEqual(other, value)).toBe(expected);
      // Equal values hash alike; unequal ones (nearly always) do not.
      if (expected) expect(canonicalHash(other)).toBe(canonicalHash(value));
      else if (canonicalHash(other) === canonicalHash(value)) sameHash += 1;
    }
    expect(sameHash).toBeLessThan(5);
    // Both outcomes are well represented.
    expect(equal).toBeGreaterThan(1000);
    expect(equal).toBeLessThan(3900);
  });
});

describe("canonicalHash", () => {
  it("is the same for canonically equal values, and tells common values apart", () => {
    const equalPairs: Array<[unknown, unknown]> = [
      [
        { a: 1, b: [1, { c: 2 }] },
        { b: [1, { c: 2 }], a: 1 },
      ],
      [{ a: 1, b: undefined }, { a: 1 }],
      [
        [Number.NaN, undefined],
        [null, null],
      ],
      [-0, 0],
      [undefined, null],
      [new Date("2026-11-29T10:00:00.000Z"), "2026-11-29T10:00:00.000Z"],
      [new Date(Number.NaN), null],
    ];
    for (const [a, b] of equalPairs) expect(canonicalHash(a)).toBe(canonicalHash(b));
    const distinct: unknown[] = [
      null,
      0,
      1,
      -1,
      0.5,
      2 ** 40,
      "",
      "0",
      "a",
      true,
      false,
      [],
      {},
      [0],
      [null],
      { a: null },
      { a: 0 },
      [1, 2],
      [2, 1],
      { a: 1, b: 2 },
      { a: 2, b: 1 },
    ];
    expect(new Set(distinct.map(canonicalHash)).size).toBe(distinct.length);
  });
});
