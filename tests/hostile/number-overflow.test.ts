/**
 * Issue 12 item 15: a JSON number that overflows to Infinity (1e400) would be stored as null by
 * JSON.stringify. An import refuses it with a typed error naming the line and the path, and
 * stores nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NonFiniteNumberError } from "@/lib/journal/errors";
import { importRuns } from "@/lib/journal/import";
import { nonFinitePath, parseFiniteJson } from "@/lib/journal/jsonl";
import type { Journal } from "@/lib/journal/ports";
import { STORE_KINDS } from "../helpers/databases";

const header = (runId: string) => JSON.stringify({ runId, seq: 0, name: "run:start", kind: "header", payload: { agent: "auditor", model: "demo/v1", input: "x", tools: [] } });

describe.each(STORE_KINDS)("numbers that overflow: $name", (kind) => {
  let store: Journal & { close(): Promise<void> };

  beforeAll(async () => {
    store = await kind.open();
  });
  afterAll(async () => {
    await store.close();
  });

  it.each([
    ["1e400", '{"amount":1e400}', "$.payload.amount"],
    ["-1E+400 in an array", '{"list":[1,2,-1E+400]}', "$.payload.list[2]"],
    ["a 400-digit integer", `{"big":${"9".repeat(400)}}`, "$.payload.big"],
  ])("refuses %s in a payload with non_finite_number and stores nothing; numbers that fit import", async (_label, payload, path) => {
    const runId = `overflow-${path.length}-${payload.length}`;
    const line = (value: string) => `${header(runId)}\n{"runId":"${runId}","seq":1,"name":"step","kind":"value","payload":${value}}\n`;
    const refused = importRuns(store, line(payload));
    await expect(refused).rejects.toBeInstanceOf(NonFiniteNumberError);
    await expect(refused).rejects.toMatchObject({ code: "non_finite_number", path, message: expect.stringContaining("line 2") });
    expect(await store.run(runId)).toBeUndefined();
    // Large finite numbers, and exponents that underflow to 0, are not refused.
    await importRuns(store, line('{"a":1e308,"b":1e-400,"c":123456789012345678901234567890}'));
    expect((await store.record(runId, "step"))?.payload).toEqual({ a: 1e308, b: 0, c: 123456789012345678901234567890 });
  });
});

describe("finding non-finite numbers", () => {
  it("names the path of the first one, and passes finite values", () => {
    expect(nonFinitePath({ a: [{ b: Number.POSITIVE_INFINITY }] })).toBe("$.a[0].b");
    expect(nonFinitePath({ a: [1, "1e400", null] })).toBeUndefined();
    expect(() => parseFiniteJson('{"x":1e999}')).toThrow(NonFiniteNumberError);
    expect(parseFiniteJson('{"x":"1e999"}')).toEqual({ x: "1e999" });
  });
});
