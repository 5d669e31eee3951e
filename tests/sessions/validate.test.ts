/**
 * The append's input check, pure: the plain fast path (plainEvent) must accept only what the zod
 * schema accepts, with the same result, and must take the common events (else appends silently
 * lose their speed); everything else is decided and worded by zod.
 */
import { describe, expect, it } from "vitest";
import { BadInputError } from "@/lib/journal/errors";
import { checkEvent, checkId, checkIndex, plainEvent, schemaEvent } from "@/lib/sessions/validate";

const VALID: unknown[] = [
  { author: "user" },
  { id: "E1", author: "user", invocationId: "inv-1", content: { role: "user", parts: [{ text: "add 2 tickets" }] }, actions: { stateDelta: { cart: 2 } } },
  { id: "E3", author: "agent", content: null, actions: { stateDelta: { "temp:quote": "Q-77", "app:theme": "dark", "user:tier": "gold", note: null } } },
  { author: "agent", invocationId: "", actions: {} },
  { author: "agent", actions: { stateDelta: {} } },
  { author: "agent", timestamp: "2026-11-30T10:00:00Z" },
  { author: "agent", timestamp: 1_700_000_000_000 },
  { author: "agent", timestamp: new Date(86_400_000) },
  { author: "agent", content: [1, "two", true, null, { deep: [{ deeper: "x" }] }] },
  { author: "agent", content: "plain text", id: "x".repeat(256) },
  { author: "agent", actions: { stateDelta: { constructor: 1, toString: "s", ["k".repeat(512)]: [] } } },
  { author: "agent", actions: { stateDelta: { text: "a backslash before u0000 is fine: \\u0000" } } },
  Object.assign(Object.create(null), { author: "agent", actions: { stateDelta: Object.assign(Object.create(null), { cart: 1 }) } }),
  { author: "agent", id: undefined, content: undefined, timestamp: undefined, actions: undefined },
];

const INVALID: unknown[] = [
  null,
  "event",
  [],
  {},
  { author: "" },
  { author: "a\u0000b" },
  { author: "agent", id: "" },
  { author: "agent", id: "x".repeat(257) },
  { author: "agent", invocationId: 7 },
  { author: "agent", extra: true },
  { author: "agent", content: undefined, actions: { stateDelta: { cart: 2 }, other: 1 } },
  { author: "agent", content: Number.NaN },
  { author: "agent", content: { when: new Date(0) } },
  { author: "agent", content: () => 1 },
  { author: "agent", actions: { stateDelta: { "": 1 } } },
  { author: "agent", actions: { stateDelta: { "temp:": 1 } } },
  { author: "agent", actions: { stateDelta: { ["k".repeat(513)]: 1 } } },
  { author: "agent", actions: { stateDelta: { "bad\u0000key": 1 } } },
  { author: "agent", actions: { stateDelta: { cart: "nul \u0000 inside" } } },
  { author: "agent", actions: { stateDelta: { cart: Infinity } } },
  { author: "agent", actions: { stateDelta: [1, 2] } },
  { author: "agent", actions: { stateDelta: new Map([["cart", 1]]) } },
  { author: "agent", actions: { stateDelta: { [Symbol("hidden")]: 1, cart: 1 } } },
  { author: "agent", timestamp: "not a date" },
  { author: "agent", timestamp: Number.POSITIVE_INFINITY },
  { author: "agent", timestamp: new Date(Number.NaN) },
  { author: "agent", timestamp: true },
];

describe("checkEvent's fast path", () => {
  it("takes every common valid event, with exactly zod's result", () => {
    for (const event of VALID) {
      const fast = plainEvent(event);
      expect(fast, JSON.stringify(event)).toBeDefined();
      expect(fast).toEqual(schemaEvent(event));
      expect(checkEvent(event)).toEqual(fast);
    }
  });

  it("copies the delta, as zod does: a later change to the caller's object changes nothing checked", () => {
    const delta = { cart: 2 };
    const checked = checkEvent({ author: "user", actions: { stateDelta: delta } });
    delta.cart = 5;
    expect(checked.stateDelta).toEqual({ cart: 2 });
  });

  it("leaves every invalid event to zod, which refuses it with a typed error", () => {
    for (const event of INVALID) {
      expect(plainEvent(event)).toBeUndefined();
      expect(() => checkEvent(event)).toThrow(BadInputError);
    }
  });

  it("leaves what it does not plainly recognise to zod, which may still accept it (an instance of a class)", () => {
    const instance = new (class Event {
      author = "agent";
    })();
    expect(plainEvent(instance)).toBeUndefined();
    expect(checkEvent(instance)).toMatchObject({ author: "agent", invocationId: "", content: null, stateDelta: {} });
  });

  it("accepts only what zod accepts on generated events (keys, lengths, NUL, scope prefixes, values)", () => {
    const pick = <T>(items: readonly T[], seed: number): T => items[seed % items.length] as T;
    const texts = ["", "a", "temp:", "app:x", "user:", "x".repeat(256), "x".repeat(257), "nul\u0000", "\\u0000", "ok"];
    const values: unknown[] = [1, -0.5, Number.NaN, "s", null, true, [1, [2]], { a: { b: null } }, undefined, new Date(0), 10n];
    let seed = 12_345;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
    let fastTaken = 0;
    for (let index = 0; index < 3_000; index += 1) {
      const delta: Record<string, unknown> = {};
      for (let key = next() % 3; key > 0; key -= 1) delta[pick(texts, next())] = pick(values, next());
      const event: Record<string, unknown> = { author: pick(texts, next()) };
      if (next() % 2) event.id = pick(texts, next());
      if (next() % 2) event.invocationId = pick(texts, next());
      if (next() % 2) event.content = pick(values, next());
      if (next() % 3) event.actions = next() % 5 ? { stateDelta: delta } : { stateDelta: delta, more: 1 };
      const fast = plainEvent(event);
      let reference: unknown;
      try {
        reference = schemaEvent(event);
      } catch (error) {
        expect(error).toBeInstanceOf(BadInputError);
        reference = undefined;
      }
      if (fast !== undefined) {
        fastTaken += 1;
        expect(reference, JSON.stringify(event)).toEqual(fast);
      }
    }
    expect(fastTaken).toBeGreaterThan(100);
  });
});

describe("checkId and checkIndex", () => {
  it("pass valid values through and refuse the rest with a typed error", () => {
    expect(checkId("ticket-booking")).toBe("ticket-booking");
    expect(checkIndex(0, "at")).toBe(0);
    expect(checkIndex(41, "at")).toBe(41);
    for (const bad of ["", "x".repeat(257), "a\u0000", 5, null]) expect(() => checkId(bad)).toThrow(BadInputError);
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 53, "3", null]) expect(() => checkIndex(bad, "at")).toThrow(BadInputError);
  });
});
