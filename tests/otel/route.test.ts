/**
 * POST /v1/traces, the real route handler, fed what the stock OTel exporters send (captured by a
 * loopback collector, bytes untouched) on the PostgreSQL server; its refusals (400, 413, 415) carry
 * an OTLP status, and the proxy's access rule lets exporters in with the ingest token only.
 */
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { decide } from "@/app/_server/access";
import { ExportTraceServiceResponse, RpcStatus } from "@/lib/otel/proto";
import { freshServerDatabase } from "../helpers/databases";
import { startCollector, tracedGenerateText, type Exported } from "./clients";
import { payload, plannerTrace } from "./genai";

vi.mock("server-only", () => ({}));

const database = await freshServerDatabase();
process.env.DATABASE_URL = database.url;
process.env.BACKTRACK_DEMO = "0";
const { POST } = await import("@/app/v1/traces/route");
const { getStore } = await import("@/app/_server/store");

function post(body: Uint8Array | string, headers: Record<string, string>): Promise<Response> {
  return POST(new Request("http://127.0.0.1:3000/v1/traces", { method: "POST", body: typeof body === "string" ? body : Buffer.from(body), headers }));
}

describe("POST /v1/traces", () => {
  beforeAll(async () => {
    await getStore();
  });
  afterAll(async () => {
    await (await getStore()).close();
    await database.drop();
  });

  it("journals what the stock proto exporter sends, answering with an ExportTraceServiceResponse", async () => {
    const collector = await startCollector(async (request: Exported) => {
      const response = await post(request.body, { "content-type": request.contentType ?? "", ...(request.contentEncoding ? { "content-encoding": request.contentEncoding } : {}) });
      return { status: response.status, body: new Uint8Array(await response.arrayBuffer()), contentType: response.headers.get("content-type") ?? "" };
    });
    await tracedGenerateText({ url: collector.url, exporter: "proto", runId: "route-run" });
    await collector.close();
    const store = await getStore();
    expect(await store.run("route-run")).toMatchObject({ origin: "otel", status: "complete", modelTurns: 2, toolCalls: 1 });
    // The same bytes again: a retry changes nothing and is answered 200.
    const again = await post(collector.requests[0]!.body, { "content-type": "application/x-protobuf" });
    expect(again.status).toBe(200);
    expect(ExportTraceServiceResponse.toObject(ExportTraceServiceResponse.decode(new Uint8Array(await again.arrayBuffer())))).toEqual({});
    expect((await store.history("route-run")).length).toBe(6);
  });

  it("takes gzip JSON and reports dropped spans in partialSuccess", async () => {
    const response = await post(gzipSync(payload(plannerTrace("route-genai"))), { "content-type": "application/json", "content-encoding": "gzip" });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { partialSuccess?: { rejectedSpans?: number; errorMessage?: string } };
    expect(body.partialSuccess?.rejectedSpans).toBe(0);
    expect(body.partialSuccess?.errorMessage).toContain("not AI spans");
    expect((await (await getStore()).run("route-genai.a000000000000004"))?.parentRunId).toBe("route-genai");
  });

  it("answers 400 with an OTLP status for a malformed body, 415 for another type, 413 above the limit", async () => {
    const malformed = await post(new Uint8Array([0x0a, 0xff, 0xff, 0xff]), { "content-type": "application/x-protobuf" });
    expect(malformed.status).toBe(400);
    expect(RpcStatus.toObject(RpcStatus.decode(new Uint8Array(await malformed.arrayBuffer())))).toMatchObject({ code: 3, message: expect.stringContaining("protobuf") });
    const badJson = await post("{", { "content-type": "application/json" });
    expect(badJson.status).toBe(400);
    expect(((await badJson.json()) as { message: string }).message).toContain("not JSON");
    expect((await post("x", { "content-type": "text/plain" })).status).toBe(415);
    const huge = await post("{}", { "content-type": "application/json", "content-length": String(17 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    const bomb = await post(gzipSync(Buffer.alloc(17 * 1024 * 1024, 32)), { "content-type": "application/json", "content-encoding": "gzip" });
    expect(bomb.status).toBe(413);
  });
});

describe("who may export", () => {
  const facts = { method: "POST", pathname: "/v1/traces", host: "127.0.0.1:3000", origin: null, secFetchSite: null, sessionCookie: undefined };
  it("needs the ingest token or the inspector token when either is set, and only for ingest", () => {
    const settings = { readOnly: false, ingestToken: "ingest-secret", token: "main-secret" };
    expect(decide({ ...facts, authorization: "Bearer ingest-secret" }, settings).allow).toBe(true);
    expect(decide({ ...facts, authorization: "Bearer main-secret" }, settings).allow).toBe(true);
    expect(decide({ ...facts, authorization: "Bearer wrong" }, settings)).toMatchObject({ allow: false, status: 401 });
    expect(decide({ ...facts, authorization: null }, settings)).toMatchObject({ allow: false, status: 401 });
    expect(decide({ ...facts, pathname: "/api/import", authorization: "Bearer ingest-secret" }, settings)).toMatchObject({ allow: false, status: 401 });
  });
  it("is open on loopback without tokens, refused read-only without one, and refused across origins", () => {
    expect(decide({ ...facts, authorization: null }, { readOnly: false }).allow).toBe(true);
    expect(decide({ ...facts, authorization: null }, { readOnly: true })).toMatchObject({ allow: false, code: "read_only" });
    expect(decide({ ...facts, authorization: "Bearer t" }, { readOnly: true, ingestToken: "t" }).allow).toBe(true);
    expect(decide({ ...facts, origin: "https://evil.example", authorization: "Bearer t" }, { readOnly: false, ingestToken: "t" })).toMatchObject({
      allow: false,
      code: "cross_origin",
    });
  });
});
