/**
 * The nanosecond helpers of lib/otel agree with exact arithmetic: nsToIso (which remembers the
 * last second it formatted) with Date, over generated times near now, far apart and across second
 * boundaries; and protobuf's fixed64 span times decode to their exact decimal text.
 */
import { describe, expect, it } from "vitest";
import { decodeSpans, unsignedDecimal } from "@/lib/otel/decode";
import { ExportTraceServiceRequest } from "@/lib/otel/proto";
import { durationMs, nsToIso } from "@/lib/otel/spans";

/** A decimal string of `digits` random digits without a leading zero. */
function randomDigits(digits: number, random: () => number): string {
  let text = String(1 + Math.floor(random() * 9));
  while (text.length < digits) text += String(Math.floor(random() * 10));
  return text;
}

/** A small deterministic generator, so that a failure repeats. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe("otel nanosecond helpers", () => {
  it("nsToIso equals Date's ISO text at millisecond precision, across seconds, in any order", () => {
    const random = seeded(11);
    for (let index = 0; index < 20_000; index += 1) {
      // Jumps back and forth between a few seconds and far times, so the remembered second changes.
      const ms = index % 3 === 0 ? Math.floor(random() * 4_102_444_800_000) : 1_796_000_000_000 + Math.floor(random() * 3_000);
      const ns = `${ms}${randomDigits(7, random).slice(1)}`;
      expect(nsToIso(ns), ns).toBe(new Date(ms).toISOString());
    }
    expect(nsToIso("999999")).toBe("1970-01-01T00:00:00.000Z");
    expect(nsToIso("1000000")).toBe("1970-01-01T00:00:00.001Z");
  });
});

describe("otel span durations", () => {
  /** The formula durationMs keeps for what its exact double arithmetic does not cover. */
  function reference(startNs: string, endNs: string): number {
    try {
      const ns = BigInt(endNs) - BigInt(startNs);
      return ns > 0n ? Number(ns / 1000n) / 1000 : 0;
    } catch {
      return 0;
    }
  }

  it("durationMs equals the BigInt formula: near, far apart, backwards, short strings and junk", () => {
    const random = seeded(23);
    const cases: Array<[string, string]> = [
      ["0", "0"],
      ["0", "999"],
      ["0", "1000"],
      ["999999999", "1000000000"],
      ["1796000000000000000", "1796000000000000999"],
      ["1796000000000000001", "1796000000000001000"],
      ["1796000000000000000", "1795999999999999999"],
      ["1", "18446744073709551615"],
      ["1796000000000000000", "1796009000000000000"],
      ["1796000000000000000", "1796008999999999999"],
      ["", "5000"],
      ["12a", "5000"],
      ["-5", "5000"],
      ["1e3", "5000"],
      ["1000", "2.5e3"],
      ["000001000", "000003000"],
    ];
    for (let index = 0; index < 20_000; index += 1) {
      const start = `17${randomDigits(17, random)}`;
      const apart = index % 4 === 0 ? randomDigits(1 + Math.floor(random() * 19), random) : String(Math.floor(random() * 10 ** (1 + Math.floor(random() * 12))));
      const end = (BigInt(start) + BigInt(apart) * (index % 7 === 0 ? -1n : 1n)).toString();
      cases.push([start, end]);
    }
    for (const [start, end] of cases) expect(durationMs(start, end), `${start} → ${end}`).toBe(reference(start, end));
  });
});

describe("otel fixed64 decoding", () => {
  it("unsignedDecimal equals BigInt's decimal of high·2^32 + low, edges and 20,000 generated values", () => {
    const random = seeded(5);
    const cases: Array<[number, number]> = [
      [0, 0],
      [1, 0],
      [0xffffffff, 0],
      [0, 1],
      [999_999, 0],
      [1_000_000, 0],
      [0xffffffff, 0x1fffff],
      [0, 0x200000],
      [1, 0x200000],
      [0xffffffff, 0xffffffff],
    ];
    for (let index = 0; index < 20_000; index += 1) cases.push([Math.floor(random() * 2 ** 32), Math.floor(random() * 2 ** 32)]);
    for (const [low, high] of cases) expect(unsignedDecimal(low, high), `${high}:${low}`).toBe(((BigInt(high) << 32n) + BigInt(low)).toString());
  });

  it("decodes protobuf span times past 2^53 exactly, up to 2^64 - 1, and span ids from the bytes", () => {
    const times = ["1796000000000000001", "9007199254740993", "18446744073709551615", "0"];
    const body = ExportTraceServiceRequest.encode(
      ExportTraceServiceRequest.fromObject({
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: times.map((time, index) => ({
                  traceId: Buffer.from("0123456789abcdef0123456789abcdef", "hex"),
                  spanId: Buffer.from(`00000000000000${String(index + 1).padStart(2, "0")}`, "hex"),
                  name: "chat",
                  startTimeUnixNano: time,
                  endTimeUnixNano: time,
                })),
              },
            ],
          },
        ],
      }),
    ).finish();
    const spans = decodeSpans(body, "protobuf").spans;
    expect(spans.map((span) => span.startNs)).toEqual(times);
    expect(spans.map((span) => span.spanId)).toEqual(["0000000000000001", "0000000000000002", "0000000000000003", "0000000000000004"]);
  });
});
