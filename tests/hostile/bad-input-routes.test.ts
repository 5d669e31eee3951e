/**
 * Hostile input on the inspector's edge (issue 12, item 11): NUL in ids, queries and bodies, paths
 * that do not decode, and numbers past PostgreSQL's integer. The real route handlers run here, on
 * PGlite and on the PostgreSQL server: each answer is 400 or 404 with a typed code, never a 500,
 * and never the SQL text or its parameters. A 500 itself says `internal` with a request id.
 */
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { tempFolder, freshServerDatabase } from "../helpers/databases";

// Route modules import "server-only", which throws outside a React server bundle.
vi.mock("server-only", () => ({}));

const { errorResponse, route } = await import("@/app/_server/http");
const { pageFilters, pageId } = await import("@/app/_server/page-params");
const { undecodablePath } = await import("@/app/_server/url-input");
const { getStore } = await import("@/app/_server/store");
const { jobRunner } = await import("@/app/_server/jobs");

type Handler = (request: NextRequest, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
const handlers = {
  run: (await import("@/app/api/runs/[id]/route")).GET,
  records: (await import("@/app/api/runs/[id]/records/route")).GET,
  state: (await import("@/app/api/runs/[id]/state/route")).GET,
  outline: (await import("@/app/api/runs/[id]/outline/route")).GET,
  mermaid: (await import("@/app/api/runs/[id]/mermaid/route")).GET,
  stream: (await import("@/app/api/runs/[id]/stream/route")).GET,
  answers: (await import("@/app/api/runs/[id]/answers/route")).POST,
  decisions: (await import("@/app/api/runs/[id]/decisions/route")).POST,
  resolutions: (await import("@/app/api/runs/[id]/resolutions/route")).POST,
  replays: (await import("@/app/api/runs/[id]/replays/route")).POST,
  runs: (await import("@/app/api/runs/route")).GET,
  agents: (await import("@/app/api/agents/route")).GET,
  diff: (await import("@/app/api/diff/route")).GET,
  diffEntries: (await import("@/app/api/diff/entries/route")).GET,
  job: (await import("@/app/api/jobs/[jobId]/route")).GET,
  replayJob: (await import("@/app/api/replays/[jobId]/route")).GET,
  recoverJob: (await import("@/app/api/recover/[jobId]/route")).GET,
  session: (await import("@/app/api/sessions/[id]/route")).GET,
  rebuild: (await import("@/app/api/sessions/[id]/rebuild/route")).GET,
  sessions: (await import("@/app/api/sessions/route")).GET,
} as unknown as Record<string, Handler>;

interface Answer {
  path: string;
  status: number;
  text: string;
  code: string | undefined;
}

async function call(name: string, path: string, params: Record<string, string> = {}, body?: unknown): Promise<Answer> {
  const init = body === undefined ? {} : { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } };
  const response = await (handlers[name] as Handler)(new NextRequest(`http://127.0.0.1${path}`, init), { params: Promise.resolve(params) });
  const text = await response.text();
  let code: string | undefined;
  try {
    code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
  } catch {
    code = undefined;
  }
  return { path: `${name} ${path} ${JSON.stringify(params)}`, status: response.status, text, code };
}

/** 400 or 404 with a typed code, and nothing of the SQL, its parameters or the database's own words. */
function expectRefused(answer: Answer) {
  expect([400, 404], answer.path).toContain(answer.status);
  expect(["bad_input", "not_found"], answer.path).toContain(answer.code);
  expect(answer.text, answer.path).not.toMatch(/select|insert|\$\d|params|\\u0000|out of range for type|invalid byte sequence/i);
}

const RUN = "hostile-run";
const NUL_ID = "a\u0000b";

const KINDS = [
  {
    name: "pglite",
    open: async () => {
      const folder = tempFolder();
      return { url: `pglite:${folder.path}`, drop: async () => folder.remove() };
    },
  },
  { name: "server", open: freshServerDatabase },
];

describe.each(KINDS)("hostile input on the routes: $name", (kind) => {
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const database = await kind.open();
    drop = database.drop;
    process.env.DATABASE_URL = database.url;
    process.env.BACKTRACK_DEMO = "0";
    const store = await getStore();
    await store.append({ runId: RUN, name: "run:start", kind: "value", payload: { input: "hello" } });
    await store.append({ runId: RUN, name: "turn:0", kind: "value", payload: 1 });
  });
  afterAll(async () => {
    // The routes share one store and job runner per process: close them so the next kind opens its own.
    const holder = globalThis as unknown as Record<symbol, unknown>;
    if (Symbol.for("backtrack.inspector.jobs") in holder) await (await jobRunner()).stop();
    await (await getStore()).close();
    for (const name of ["store", "jobs"]) delete holder[Symbol.for(`backtrack.inspector.${name}`)];
    await drop();
  });

  it("refuses a NUL in a path id on every route that takes one", async () => {
    for (const name of ["run", "records", "state", "outline", "mermaid", "stream", "session", "rebuild"]) {
      expectRefused(await call(name, `/api/x/${encodeURIComponent(NUL_ID)}`, { id: NUL_ID }));
    }
    for (const name of ["job", "replayJob", "recoverJob"]) expectRefused(await call(name, "/api/jobs/x", { jobId: NUL_ID }));
    expectRefused(await call("answers", "/api/x", { id: NUL_ID }, { text: "yes" }));
    expectRefused(await call("decisions", "/api/x", { id: NUL_ID }, { decision: "approve" }));
    expectRefused(await call("resolutions", "/api/x", { id: NUL_ID }, { outcome: "failed" }));
    expectRefused(await call("replays", "/api/x", { id: NUL_ID }, { mode: "recorded" }));
  });

  it("refuses a NUL in a query value or name, and in a JSON body", async () => {
    for (const query of ["search=%00", "agent=a%00", "cursor=%00", "status=%00", "%00=1"]) expectRefused(await call("runs", `/api/runs?${query}`));
    expectRefused(await call("diff", `/api/diff?a=a%00b&b=${RUN}`));
    expectRefused(await call("diffEntries", `/api/diff/entries?a=${RUN}&b=a%00b`));
    expectRefused(await call("sessions", "/api/sessions?app=%00"));
    expectRefused(await call("agents", "/api/agents?x=%00"));
    expectRefused(await call("records", `/api/runs/${RUN}/records?from=0%00`, { id: RUN }));
    expectRefused(await call("decisions", "/api/x", { id: RUN }, { decision: "approve", by: NUL_ID }));
    expectRefused(await call("resolutions", "/api/x", { id: RUN }, { outcome: "succeeded", result: { [NUL_ID]: 1 } }));
  });

  it("refuses whole numbers past PostgreSQL's integer or JavaScript's safe range", async () => {
    for (const value of ["99999999999", "2147483648", "9007199254740993", "1e400"]) {
      expectRefused(await call("records", `/api/runs/${RUN}/records?from=${value}`, { id: RUN }));
      expectRefused(await call("records", `/api/runs/${RUN}/records?limit=${value}`, { id: RUN }));
      expectRefused(await call("state", `/api/runs/${RUN}/state?at=${value}`, { id: RUN }));
      expectRefused(await call("outline", `/api/runs/${RUN}/outline?from=${value}`, { id: RUN }));
      expectRefused(await call("mermaid", `/api/runs/${RUN}/mermaid?at=${value}`, { id: RUN }));
      expectRefused(await call("session", `/api/sessions/s?at=${value}`, { id: "s" }));
      expectRefused(await call("diffEntries", `/api/diff/entries?a=${RUN}&b=${RUN}&from=${value}`));
      expectRefused(await call("runs", `/api/runs?limit=${value}`));
    }
    // The largest integer is still a seq, and well-formed requests are answered as before.
    expect((await call("records", `/api/runs/${RUN}/records?from=2147483647`, { id: RUN })).status).toBe(200);
    const records = await call("records", `/api/runs/${RUN}/records?from=1`, { id: RUN });
    expect(records.status).toBe(200);
    expect(JSON.parse(records.text)).toMatchObject({ records: [{ seq: 1, name: "turn:0" }], nextFrom: null });
    const unknown = await call("run", "/api/runs/nope", { id: "nope" });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.text)).toEqual({ error: { code: "not_found", message: 'no run with id "nope"' } });
    expect((await call("job", "/api/jobs/job-none", { jobId: "job-none" })).status).toBe(404);
  });
});

describe("the edge outside the routes", () => {
  it("answers a path that does not decode with 400 before Next.js routes it", async () => {
    const api = undecodablePath({ nextUrl: { pathname: "/api/runs/%FF" } });
    expect(api?.status).toBe(400);
    expect(await api?.json()).toEqual({ error: { code: "bad_input", message: "the path does not decode: a percent escape is not UTF-8" } });
    const page = undecodablePath({ nextUrl: { pathname: "/runs/%E0%A4%A" } });
    expect(page?.status).toBe(400);
    expect(await page?.text()).toContain("Bad request");
    expect(undecodablePath({ nextUrl: { pathname: "/runs/order%20123%C3%A9" } })).toBeUndefined();
  });

  it("makes a page's hostile id or filter not found, and lets a plain one through", () => {
    const notFound = (work: () => unknown) => {
      try {
        work();
      } catch (error) {
        return String((error as { digest?: string }).digest);
      }
      return "returned";
    };
    expect(notFound(() => pageId("a%00b"))).toContain("404");
    expect(notFound(() => pageId("x".repeat(300)))).toContain("404");
    expect(notFound(() => pageFilters({ q: "\u0000", agent: null }))).toContain("404");
    expect(pageId("order%20123")).toBe("order 123");
    expect(pageFilters({ q: "refund", agent: null })).toEqual({ q: "refund", agent: null });
  });
});

describe("a value the database refuses", () => {
  it("is a 400 without the SQL, should one get past the edge's checks", async () => {
    // As drizzle throws it: the failed query, its parameters, and the driver's error as the cause.
    const refused = Object.assign(new Error("Failed query: select * from runs where run_id = $1\nparams: a\u0000b"), {
      cause: Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: "22021" }),
    });
    const response = errorResponse(refused);
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ error: { code: "bad_input" } });
    expect(text).not.toMatch(/select|params|byte sequence/i);
  });
});

describe("a 500", () => {
  it("carries `internal` and a request id, never the message; the log has the error under that id", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const failing = route(async () => {
        throw new Error('Failed query: select * from runs where run_id = $1 params: ["secret"]');
      });
      const response = await failing(new NextRequest("http://127.0.0.1/api/agents"), { params: Promise.resolve({}) });
      expect(response.status).toBe(500);
      const body = (await response.json()) as { error: { code: string; message: string; requestId: string } };
      expect(body).toEqual({ error: { code: "internal", message: "internal error", requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
      expect(response.headers.get("x-request-id")).toBe(body.error.requestId);
      expect(log).toHaveBeenCalledTimes(1);
      expect(String(log.mock.calls[0]?.[0])).toContain(body.error.requestId);
      expect(log.mock.calls[0]?.[1]).toBeInstanceOf(Error);
      // A BacktrackError whose code means a fault inside the server is hidden the same way.
      const { BacktrackError } = await import("@/lib/journal/errors");
      const hidden = errorResponse(new BacktrackError("resume_failed", "run x failed when resumed: connection reset by 10.0.0.3"));
      expect(hidden.status).toBe(500);
      expect(JSON.stringify(await hidden.json())).not.toContain("10.0.0.3");
    } finally {
      log.mockRestore();
    }
  });
});
