/**
 * Issue 12 item 5: DNS rebinding. Only the loopback names, the bound host and
 * BACKTRACK_ALLOWED_HOSTS are answered; every other Host gets 403 on every path, and the sign-in
 * redirect is built from the host as its rule matched it.
 */
import { describe, expect, it } from "vitest";
import { decide, type RequestFacts } from "@/app/_server/access";
import { allowedHosts, matchHost } from "@/app/_server/hosts";

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

const PATHS = ["/runs", "/recovery", "/api/runs", "/api/health", "/sign-in", "/api/sign-in", "/_next/static/chunks/main.js", "/favicon.ico", "/no-such-page"];

describe("allowed hosts", () => {
  it("refuses a rebinding name on every path, pages, public paths and static files included", () => {
    for (const pathname of PATHS) {
      const attack = facts({ pathname, host: "attacker.example:3000" });
      expect(decide(attack, { readOnly: false }), pathname).toMatchObject({ allow: false, status: 403, code: "host_not_allowed" });
      expect(decide(attack, { readOnly: false, token: "s3cret" }), pathname).toMatchObject({ allow: false, status: 403, code: "host_not_allowed" });
    }
    // The replay that a rebinding page started: Host and Origin both the attacker's.
    const post = facts({ method: "POST", pathname: "/api/runs/x/replays", host: "attacker.example", origin: "http://attacker.example" });
    expect(decide(post, { readOnly: false })).toMatchObject({ allow: false, code: "host_not_allowed" });
    expect(decide(facts({ host: null }), { readOnly: false })).toMatchObject({ allow: false, code: "host_not_allowed" });
  });

  it("answers the loopback names on any port, and nothing that merely starts like them", () => {
    for (const host of ["localhost", "localhost:3000", "127.0.0.1:80", "[::1]:3000", "LOCALHOST:3000"]) {
      expect(decide(facts({ host }), { readOnly: false }), host).toEqual({ allow: true });
    }
    for (const host of ["localhost.attacker.example", "127.0.0.1.nip.io:3000", "127.0.0.1@evil.example", "127.0.0.1:3000/evil", "127.0.0.1:3000 evil", "[::1", ""]) {
      expect(decide(facts({ host }), { readOnly: false }), host).toMatchObject({ allow: false, code: "host_not_allowed" });
    }
  });

  it("adds the bound host and BACKTRACK_ALLOWED_HOSTS to the loopback names", () => {
    const allowed = allowedHosts({ BACKTRACK_BOUND_HOST: "192.168.1.5", BACKTRACK_ALLOWED_HOSTS: " inspector.test , box.lan:8080,not a host" });
    expect(matchHost("192.168.1.5:3000", allowed)).toBe("192.168.1.5:3000");
    expect(matchHost("Inspector.Test", allowed)).toBe("inspector.test");
    expect(matchHost("box.lan:8080", allowed)).toBe("box.lan:8080");
    expect(matchHost("box.lan:9090", allowed)).toBeNull();
    expect(matchHost("127.0.0.1:3000", allowed)).toBe("127.0.0.1:3000");
    expect(matchHost("attacker.example", allowed)).toBeNull();
    expect(matchHost("not a host", allowed)).toBeNull();
    expect(matchHost("[::]:3000", allowedHosts({ BACKTRACK_BOUND_HOST: "::" }))).toBe("[::]:3000");
    // `next start -H NAME` run by hand: the origin Next.js records when listening.
    expect(matchHost("box.lan:3000", allowedHosts({ __NEXT_PRIVATE_ORIGIN: "http://box.lan:3000" }))).toBe("box.lan:3000");
    expect(matchHost("box.lan:3000", allowedHosts({}))).toBeNull();
    expect(matchHost("anything.example", allowedHosts({ BACKTRACK_ALLOWED_HOSTS: "*" }))).toBe("anything.example");
  });

  it("sends to sign-in on the host as its rule matched it, never the raw header", () => {
    const decision = decide(facts({ host: "LocalHost:3000", search: "?at=2" }), { readOnly: false, token: "s3cret" });
    expect(decision).toMatchObject({ allow: false, status: 401, signIn: "/sign-in?next=%2Fruns%3Fat%3D2", host: "localhost:3000" });
  });
});
