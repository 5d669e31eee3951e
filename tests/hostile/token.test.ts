/**
 * Issue 12 item 7: token handling. Tokens and cookies are compared as fixed-length HMACs (no
 * length leak), the session cookie is an HMAC under a per-process secret (not a hash anyone can
 * compute from the token), and wrong tokens are limited per client and per server.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { PGlite } from "@electric-sql/pglite";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { decide, sessionValue, type RequestFacts } from "@/app/_server/access";
import { AttemptLimiter, clientAddress } from "@/app/_server/attempts";
import { startOwnerServer } from "@/lib/store/embedded-owner";

vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:crypto")>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const compared = vi.mocked(timingSafeEqual);
const TOKEN = "a-long-enough-s3cret-token";

const facts = (overrides: Partial<RequestFacts> = {}): RequestFacts => ({
  method: "GET",
  pathname: "/api/runs",
  host: "127.0.0.1:3000",
  origin: null,
  secFetchSite: null,
  authorization: null,
  sessionCookie: undefined,
  client: "10.0.0.1",
  ...overrides,
});

/** Each constant-time comparison made, as the byte lengths of its two sides. */
function comparedLengths(): Array<[number, number]> {
  return compared.mock.calls.map(([left, right]) => [(left as Buffer).length, (right as Buffer).length]);
}

beforeEach(() => {
  compared.mockClear();
});

describe("token comparison", () => {
  it("compares a wrong token of any length as two 32-byte digests", () => {
    for (const guess of ["x", TOKEN.slice(0, -1), `${TOKEN}x`, "y".repeat(TOKEN.length)]) {
      compared.mockClear();
      expect(decide(facts({ authorization: `Bearer ${guess}` }), { readOnly: false, token: TOKEN }), guess).toMatchObject({ allow: false, status: 401 });
      expect(comparedLengths(), guess).toContainEqual([32, 32]);
      expect(
        comparedLengths().every(([left, right]) => left === 32 && right === 32),
        guess,
      ).toBe(true);
    }
    expect(decide(facts({ authorization: `Bearer ${TOKEN}` }), { readOnly: false, token: TOKEN })).toEqual({ allow: true });
  });

  it("has the embedded owner compare its token the same way", async () => {
    const owner = await startOwnerServer({} as PGlite, TOKEN);
    try {
      for (const authorization of ["Bearer x", `Bearer ${TOKEN}x`]) {
        compared.mockClear();
        const response = await fetch(`http://127.0.0.1:${owner.port}/health`, { headers: { authorization } });
        expect(response.status, authorization).toBe(401);
        expect(comparedLengths(), authorization).toEqual([[32, 32]]);
      }
      expect((await fetch(`http://127.0.0.1:${owner.port}/health`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    } finally {
      await owner.close();
    }
  });
});

describe("session cookie", () => {
  it("is not the unsalted hash of the token that anyone holding the token's hash could forge", () => {
    const unsalted = createHash("sha256").update(`backtrack-session:${TOKEN}`).digest("hex");
    expect(decide(facts({ sessionCookie: unsalted }), { readOnly: false, token: TOKEN })).toMatchObject({ allow: false, status: 401 });
    expect(decide(facts({ sessionCookie: sessionValue(TOKEN) }), { readOnly: false, token: TOKEN })).toEqual({ allow: true });
  });

  it("is an HMAC under the server's secret: another server's cookie, or another token's, is refused", () => {
    const mine = Buffer.alloc(32, 1);
    const theirs = Buffer.alloc(32, 2);
    expect(sessionValue(TOKEN, mine)).not.toBe(sessionValue(TOKEN, theirs));
    expect(decide(facts({ sessionCookie: sessionValue(TOKEN, theirs) }), { readOnly: false, token: TOKEN, secret: mine })).toMatchObject({ allow: false });
    expect(decide(facts({ sessionCookie: sessionValue("old-token", mine) }), { readOnly: false, token: TOKEN, secret: mine })).toMatchObject({ allow: false });
    expect(decide(facts({ sessionCookie: sessionValue(TOKEN, mine) }), { readOnly: false, token: TOKEN, secret: mine })).toEqual({ allow: true });
  });
});

describe("attempt limit", () => {
  function clock(start = 1_000_000) {
    const state = { now: start };
    return { state, now: () => state.now };
  }

  it("allows ten wrong tokens a minute per client, then 429 until the oldest ages out", () => {
    const time = clock();
    const limiter = new AttemptLimiter(time.now);
    for (let index = 0; index < 10; index += 1) {
      expect(limiter.retryAfter("a")).toBe(0);
      limiter.fail("a");
      time.state.now += 1_000;
    }
    expect(limiter.retryAfter("a")).toBe(50);
    expect(limiter.retryAfter("b")).toBe(0);
    time.state.now += 50_000;
    expect(limiter.retryAfter("a")).toBe(0);
  });

  it("bounds a guesser who forges a new client address on every try", () => {
    const time = clock();
    const limiter = new AttemptLimiter(time.now);
    for (let index = 0; index < 100; index += 1) limiter.fail(`forged-${index}`);
    expect(limiter.retryAfter("forged-new")).toBe(60);
    time.state.now += 60_001;
    expect(limiter.retryAfter("forged-new")).toBe(0);
  });

  it("answers 429 to Bearer tokens once limited, the right one too, while a signed-in cookie still works", () => {
    const limiter = new AttemptLimiter(clock().now);
    const settings = { readOnly: false, token: TOKEN, limiter };
    for (let index = 0; index < 10; index += 1) {
      expect(decide(facts({ authorization: `Bearer wrong-${index}` }), settings)).toMatchObject({ status: 401 });
    }
    expect(decide(facts({ authorization: `Bearer wrong` }), settings)).toMatchObject({ status: 429, code: "too_many_attempts", retryAfter: 60 });
    expect(decide(facts({ authorization: `Bearer ${TOKEN}` }), settings)).toMatchObject({ status: 429 });
    expect(decide(facts({ sessionCookie: sessionValue(TOKEN) }), settings)).toEqual({ allow: true });
    expect(decide(facts({ client: "10.0.0.2", authorization: `Bearer ${TOKEN}` }), settings)).toEqual({ allow: true });
  });

  it("keys a client by the first address Next.js reports", () => {
    expect(clientAddress("10.0.0.1, 127.0.0.1")).toBe("10.0.0.1");
    expect(clientAddress(null)).toBe("unknown");
  });
});
