/**
 * Issue 12 item 8: secrets are redacted on the server. The pure function (lib/inspect/redact.ts)
 * masks values under secret keys and secret-shaped text inside strings; every API answer that
 * carries recorded data passes through it, "Reveal" reads one raw value, and a diff tells two
 * different secrets apart. The handlers run for real over a fresh PostgreSQL database.
 */
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { distinctMarkers, maskSecretText, REDACTED, redactSecrets, secretKeyMatcher, valueAtPointer } from "@/lib/inspect/redact";
import { freshServerDatabase } from "../helpers/databases";
import { SECRETS, writeSecretRun } from "./secret-run";

vi.mock("server-only", () => ({}));

describe("maskSecretText", () => {
  it("masks secret-shaped text and keeps what names it", () => {
    const cases: Array<[string, string]> = [
      ["https://x/?api_key=abc123def456&page=2", `https://x/?api_key=${REDACTED}&page=2`],
      ["GET /v1?token=zzz99999yyy&password=hunter22", `GET /v1?token=${REDACTED}&password=${REDACTED}`],
      ["Authorization: Bearer abc.DEF-123_xyz", `Authorization: Bearer ${REDACTED}`],
      ["Authorization: Basic dXNlcjpwYXNzd29yZA==", `Authorization: Basic ${REDACTED}`],
      ["key sk-ant-api03-AbCdEf0123456789 end", `key sk-ant-${REDACTED} end`],
      ["key sk-live-4f9c2e7a1b3d5f8e0c6a9b2d", `key sk-${REDACTED}`],
      ["stripe sk_live_51HabcDEF123", `stripe sk_live_${REDACTED}`],
      ["gh ghp_0123456789abcdefghijABCDEFGHIJ", `gh ghp_${REDACTED}`],
      ["slack xoxb-1234-5678-abcdefghij", `slack xoxb-${REDACTED}`],
      ["aws AKIAIOSFODNN7EXAMPLE id", `aws AKIA${REDACTED} id`],
      [`jwt ${SECRETS.bearer} here`, `jwt ${REDACTED} here`],
      ["postgres://app:s3cr3t@db:5432/x", `postgres://app:${REDACTED}@db:5432/x`],
      ['{"password": "hunter2", "user": "bob"}', `{"password": "${REDACTED}", "user": "bob"}`],
    ];
    for (const [text, expected] of cases) expect(maskSecretText(text), text).toBe(expected);
  });

  it("leaves prose, token counts and identifiers alone", () => {
    for (const text of [
      "The bearer of bad news",
      "Basic information about tokens",
      "maxTokens=4096 inputTokens=12",
      "task-1234567890abcdef",
      "https://x/?page=2&sort=asc",
      "skip-this-step",
    ]) {
      expect(maskSecretText(text), text).toBe(text);
    }
  });

  it("stays linear on hostile strings", () => {
    for (const text of [
      "a.".repeat(100_000) + "://",
      "x=".repeat(100_000),
      '"k":"'.repeat(40_000),
      "Bearer ".repeat(30_000),
      "-----BEGIN PRIVATE KEY-----".repeat(8_000),
      "sk-".repeat(70_000),
    ]) {
      const started = performance.now();
      maskSecretText(text);
      expect(performance.now() - started, text.slice(0, 20)).toBeLessThan(2_000);
    }
  });

  it("judges parameter names by the configured patterns", () => {
    const custom = secretKeyMatcher(["ssn"]);
    expect(maskSecretText("lookup?customer_ssn=123456789", { isSecret: custom })).toBe(`lookup?customer_ssn=${REDACTED}`);
    expect(maskSecretText("lookup?api_key=123456789", { isSecret: custom })).toBe("lookup?api_key=123456789");
  });
});

describe("redactSecrets", () => {
  it("masks values under secret keys and secrets inside strings, at any depth, without touching the original", () => {
    const original = {
      args: { apiKey: SECRETS.apiKey, url: `https://x/?api_key=${SECRETS.queryKey}`, headers: { authorization: `Bearer ${SECRETS.bearer}` } },
      inputTokens: 4,
      token: null,
      counts: new Int32Array([1, 2]),
    };
    const copy = redactSecrets(original) as typeof original;
    expect(copy.args).toEqual({ apiKey: REDACTED, url: `https://x/?api_key=${REDACTED}`, headers: { authorization: REDACTED } });
    expect(copy.inputTokens).toBe(4);
    expect(copy.token).toBeNull();
    expect(copy.counts).toBeInstanceOf(Int32Array);
    expect(original.args.apiKey).toBe(SECRETS.apiKey);
    const text = JSON.stringify(copy);
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
  });

  it("gives different secrets different markers and equal ones the same, with no hash of them", () => {
    const marker = distinctMarkers();
    const copy = redactSecrets({ a: { password: "one" }, b: { password: "two" }, c: { password: "one" } }, { marker }) as Record<string, { password: string }>;
    expect(copy.a!.password).toBe(`${REDACTED} 1`);
    expect(copy.b!.password).toBe(`${REDACTED} 2`);
    expect(copy.c!.password).toBe(`${REDACTED} 1`);
  });

  it("fails closed past its depth limit", () => {
    let deep: unknown = { password: "x" };
    for (let index = 0; index < 300; index += 1) deep = { next: deep };
    expect(JSON.stringify(redactSecrets(deep))).not.toContain('"x"');
  });

  it("finds one value by JSON Pointer, for Reveal", () => {
    const payload = { args: { "a/b": [{ "~k": 1 }] } };
    expect(valueAtPointer(payload, "/args/a~1b/0/~0k")).toEqual({ found: true, value: 1 });
    expect(valueAtPointer(payload, "/args/nope")).toEqual({ found: false });
    expect(valueAtPointer(payload, "args")).toEqual({ found: false });
  });
});

type Params<T> = { params: Promise<T> };
const params = <T>(value: T): Params<T> => ({ params: Promise.resolve(value) });
const none = params({});
const get = (path: string) => new NextRequest(`http://127.0.0.1${path}`);

describe("API answers carry no secret", () => {
  let drop: () => Promise<void>;
  const saved = { url: process.env.DATABASE_URL, demo: process.env.BACKTRACK_DEMO, readOnly: process.env.BACKTRACK_READ_ONLY };

  beforeAll(async () => {
    const database = await freshServerDatabase();
    drop = database.drop;
    process.env.DATABASE_URL = database.url;
    process.env.BACKTRACK_DEMO = "0";
    delete process.env.BACKTRACK_READ_ONLY;
    const { getStore } = await import("@/app/_server/store");
    const store = await getStore();
    await writeSecretRun(store, "secret-a");
    await writeSecretRun(store, "secret-b", SECRETS.other);
  });

  afterAll(async () => {
    const { getStore } = await import("@/app/_server/store");
    await (await getStore()).close();
    await drop();
    process.env.DATABASE_URL = saved.url;
    process.env.BACKTRACK_DEMO = saved.demo;
    if (saved.readOnly !== undefined) process.env.BACKTRACK_READ_ONLY = saved.readOnly;
  });

  async function answers(): Promise<Array<[string, string]>> {
    const id = params({ id: "secret-a" });
    const records = await import("@/app/api/runs/[id]/records/route");
    const state = await import("@/app/api/runs/[id]/state/route");
    const run = await import("@/app/api/runs/[id]/route");
    const runs = await import("@/app/api/runs/route");
    const outline = await import("@/app/api/runs/[id]/outline/route");
    const mermaid = await import("@/app/api/runs/[id]/mermaid/route");
    const diff = await import("@/app/api/diff/route");
    const entries = await import("@/app/api/diff/entries/route");
    const responses: Array<[string, Response]> = [
      ["records", await records.GET(get("/api/runs/secret-a/records"), id)],
      ["state", await state.GET(get("/api/runs/secret-a/state"), id)],
      ["state at 1", await state.GET(get("/api/runs/secret-a/state?at=1"), id)],
      ["run", await run.GET(get("/api/runs/secret-a"), id)],
      ["runs", await runs.GET(get("/api/runs"), none)],
      ["outline", await outline.GET(get("/api/runs/secret-a/outline"), id)],
      ["mermaid", await mermaid.GET(get("/api/runs/secret-a/mermaid"), id)],
      ["mermaid at", await mermaid.GET(get("/api/runs/secret-a/mermaid?at=3"), id)],
      ["diff", await diff.GET(get("/api/diff?a=secret-a&b=secret-b"), none)],
      ["diff entries", await entries.GET(get("/api/diff/entries?a=secret-a&b=secret-b"), none)],
    ];
    return Promise.all(responses.map(async ([name, response]) => [name, `${response.status} ${await response.text()}`] as [string, string]));
  }

  it("records, state, runs, outline, mermaid, diff and diff entries hold no secret", async () => {
    for (const [name, text] of await answers()) {
      expect(text.startsWith("200 "), `${name}: ${text.slice(0, 200)}`).toBe(true);
      for (const secret of Object.values(SECRETS)) expect(text, name).not.toContain(secret);
    }
    const records = JSON.parse((await answers()).find(([name]) => name === "records")![1].slice(4)) as { records: Array<{ payload: { args?: { url: string } } }> };
    expect(records.records[2]!.payload.args!.url).toBe(`https://x.example/v1/charge?api_key=${REDACTED}&amount=5`);
  });

  it("a diff keeps two different secrets apart after redaction", async () => {
    const diff = await import("@/app/api/diff/route");
    const body = (await (await diff.GET(get("/api/diff?a=secret-a&b=secret-b"), none)).json()) as {
      steps: Array<{ status: string; detail: { outputA?: { token: string }; outputB?: { token: string } } }>;
      divergentAt: number | null;
    };
    expect(body.divergentAt).toBe(0);
    const tool = body.steps.find((step) => step.detail.outputA !== undefined)!;
    expect(tool.status).toBe("changed");
    expect(tool.detail.outputA!.token).not.toBe(tool.detail.outputB!.token);
    expect(tool.detail.outputA!.token.startsWith(REDACTED)).toBe(true);
  });

  it("Reveal gives the one raw value, and refuses in read-only mode", async () => {
    const reveal = await import("@/app/api/runs/[id]/records/[seq]/reveal/route");
    const seq = params({ id: "secret-a", seq: "3" });
    const shown = await reveal.GET(get("/api/runs/secret-a/records/3/reveal?path=/args/apiKey"), seq);
    expect(shown.status).toBe(200);
    expect(await shown.json()).toEqual({ runId: "secret-a", seq: 3, path: "/args/apiKey", value: SECRETS.apiKey });
    expect((await reveal.GET(get("/api/runs/secret-a/records/3/reveal?path=/args/nope"), seq)).status).toBe(404);
    expect((await reveal.GET(get("/api/runs/secret-a/records/3/reveal?path=args"), seq)).status).toBe(400);
    process.env.BACKTRACK_READ_ONLY = "1";
    try {
      const refused = await reveal.GET(get("/api/runs/secret-a/records/3/reveal?path=/args/apiKey"), seq);
      expect(refused.status).toBe(403);
      expect(await refused.text()).not.toContain(SECRETS.apiKey);
    } finally {
      delete process.env.BACKTRACK_READ_ONLY;
    }
  });

  it("the proxy treats reveal as a privileged read", async () => {
    const { decide } = await import("@/app/_server/access");
    const facts = {
      method: "GET",
      pathname: "/api/runs/x/records/3/reveal",
      host: "127.0.0.1:3000",
      origin: null,
      secFetchSite: null,
      authorization: null,
      sessionCookie: undefined,
    };
    expect(decide(facts, { readOnly: true })).toMatchObject({ allow: false, status: 403, code: "read_only" });
    expect(decide(facts, { readOnly: false, token: "t0ken" })).toMatchObject({ allow: false, status: 401 });
    expect(decide({ ...facts, origin: "http://evil.example" }, { readOnly: false })).toMatchObject({ allow: false, code: "cross_origin" });
    expect(decide(facts, { readOnly: false })).toEqual({ allow: true });
    expect(decide({ ...facts, pathname: "/api/runs/x/records" }, { readOnly: true })).toEqual({ allow: true });
  });
});
