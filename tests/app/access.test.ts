/** The access rules behind proxy.ts: sign-in, same-origin mutations, read-only mode. */
import { describe, expect, it } from "vitest";
import { accessSettings, decide, isSameOrigin, safeNext, sessionValue, type RequestFacts } from "@/app/_server/access";

const facts = (overrides: Partial<RequestFacts> = {}): RequestFacts => ({
  method: "GET",
  pathname: "/runs",
  host: "127.0.0.1:3000",
  origin: null,
  secFetchSite: null,
  authorization: null,
  sessionCookie: undefined,
  ...overrides,
});

describe("access", () => {
  it("reads its settings from the environment", () => {
    expect(accessSettings({})).toEqual({ token: undefined, readOnly: false });
    expect(accessSettings({ BACKTRACK_TOKEN: " s3cret ", BACKTRACK_READ_ONLY: "1" })).toEqual({ token: "s3cret", readOnly: true });
  });

  it("lets everything through when open, but never a cross-site mutation", () => {
    const open = { readOnly: false };
    expect(decide(facts(), open)).toEqual({ allow: true });
    expect(decide(facts({ method: "POST", pathname: "/api/runs/x/replays", origin: "http://127.0.0.1:3000" }), open)).toEqual({ allow: true });
    expect(decide(facts({ method: "POST", pathname: "/api/runs/x/replays", origin: "http://evil.example" }), open)).toMatchObject({
      allow: false,
      status: 403,
      code: "cross_origin",
    });
    expect(decide(facts({ method: "POST", pathname: "/api/recover", secFetchSite: "cross-site" }), open)).toMatchObject({ allow: false, code: "cross_origin" });
    expect(decide(facts({ method: "POST", pathname: "/api/recover", origin: "null" }), open)).toMatchObject({ allow: false, code: "cross_origin" });
  });

  it("requires the token or the session cookie when BACKTRACK_TOKEN is set", () => {
    const locked = { token: "s3cret", readOnly: false };
    expect(decide(facts({ search: "?at=2" }), locked)).toMatchObject({ allow: false, status: 401, signIn: "/sign-in?next=%2Fruns%3Fat%3D2" });
    expect(decide(facts({ pathname: "/api/runs" }), locked)).toMatchObject({ allow: false, status: 401, code: "unauthorized" });
    expect(decide(facts({ authorization: "Bearer s3cret" }), locked)).toEqual({ allow: true });
    expect(decide(facts({ authorization: "Bearer wrong!" }), locked)).toMatchObject({ allow: false });
    expect(decide(facts({ sessionCookie: sessionValue("s3cret") }), locked)).toEqual({ allow: true });
    expect(decide(facts({ sessionCookie: sessionValue("other") }), locked)).toMatchObject({ allow: false });
    expect(decide(facts({ pathname: "/sign-in" }), locked)).toEqual({ allow: true });
    expect(decide(facts({ pathname: "/api/health" }), locked)).toEqual({ allow: true });
  });

  it("refuses every mutation in read-only mode, except signing in", () => {
    const readOnly = { readOnly: true };
    expect(decide(facts({ method: "POST", pathname: "/api/runs/x/replays", origin: "http://127.0.0.1:3000" }), readOnly)).toMatchObject({ allow: false, code: "read_only" });
    expect(decide(facts({ method: "POST", pathname: "/api/sign-in", origin: "http://127.0.0.1:3000" }), readOnly)).toEqual({ allow: true });
    expect(decide(facts(), readOnly)).toEqual({ allow: true });
  });

  it("judges origins and sign-in redirects safely", () => {
    expect(isSameOrigin({ host: "a:1", origin: "http://a:1", secFetchSite: "same-origin" })).toBe(true);
    expect(isSameOrigin({ host: "a:1", origin: "http://a:2", secFetchSite: null })).toBe(false);
    expect(isSameOrigin({ host: "a:1", origin: null, secFetchSite: "same-site" })).toBe(false);
    expect(safeNext("/runs/x?at=3")).toBe("/runs/x?at=3");
    expect(safeNext("//evil.example")).toBe("/runs");
    expect(safeNext("https://evil.example")).toBe("/runs");
    expect(safeNext(undefined)).toBe("/runs");
  });
});
