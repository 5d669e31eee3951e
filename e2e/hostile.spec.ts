/** Hostile input against the built app (issue 12's hardening items), over real HTTP and in Chromium. */
import { createHash } from "node:crypto";
import { createServer, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { E2E_ALLOWED_HOST, E2E_SERVER_PORT, E2E_TOKEN, HOSTS_PORT, READ_ONLY_PORT, TOKEN_PORT } from "../playwright.config";
import { generatedText } from "../tests/hostile/jsonl-files";
import { plant, startCli } from "./cli";

test.describe("items 4–7: redirect, hosts, headers, token", () => {
  const port = E2E_SERVER_PORT;
  const open = `http://127.0.0.1:${port}`;
  const guarded = `http://127.0.0.1:${HOSTS_PORT}`;
  const SECURITY_HEADERS = {
    "content-security-policy": "frame-ancestors 'none'",
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
  };

  interface RawResponse {
    status: number;
    headers: IncomingHttpHeaders;
    body: string;
  }

  interface RawRequest {
    headers: Record<string, string>;
    method?: string;
    body?: string;
    /** The address connected to (the Host header says what it is called). */
    address?: string;
  }

  /** A request with the Host header as given (a rebinding page's browser sends its own name). */
  function raw(serverPort: number, path: string, { headers, method = "GET", body, address = "127.0.0.1" }: RawRequest): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const sent = httpRequest({ host: address, port: serverPort, path, method, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") }));
      });
      sent.on("error", reject);
      sent.end(body);
    });
  }

  /** A script the built app serves under /_next/static (named in a page's HTML). */
  async function staticAsset(request: APIRequestContext): Promise<string> {
    const html = await (await request.get(`${open}/sign-in`)).text();
    const asset = /\/_next\/static\/[^"']+\.js/.exec(html)?.[0];
    expect(asset, "a script under /_next/static").toBeTruthy();
    return asset!;
  }

  function signIn(request: APIRequestContext, form: Record<string, string>, headers: Record<string, string> = {}): Promise<APIResponse> {
    return request.post(`${guarded}/api/sign-in`, { form, headers, maxRedirects: 0 });
  }

  test("item 4: signing in with next=/%09/evil.example/phish stays on this site", async ({ page }) => {
    let phished = false;
    await page.route("http://evil.example/**", (route) => {
      phished = true;
      return route.fulfill({ contentType: "text/html", body: "<h1>phished</h1>" });
    });
    await page.goto(`${guarded}/sign-in?next=/%09/evil.example/phish`);
    await page.getByLabel("Token").fill(E2E_TOKEN);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${guarded}/runs`);
    expect(phished).toBe(false);
  });

  test("item 4: a newline in next is answered with a redirect on this site, never a 500", async ({ request }) => {
    expect((await request.get(`${guarded}/sign-in?next=/%0A/evil.example`)).status()).toBe(200);
    const wrong = await signIn(request, { token: "not-the-token", next: "/runs\n/x" }, { "x-forwarded-for": "198.51.100.4" });
    expect(wrong.status()).toBe(303);
    const right = await signIn(request, { token: E2E_TOKEN, next: "/runs\n/x" });
    expect(right.status()).toBe(303);
    expect(right.headers().location).toBe("/runs/x");
    const away = await signIn(request, { token: E2E_TOKEN, next: "/\n/evil.example/phish" });
    expect(away.headers().location).toBe("/runs");
  });

  test("item 5: a Host that is not allowed gets 403 on pages, API, public paths and static files", async ({ request }) => {
    const asset = await staticAsset(request);
    const attacker = { host: `attacker.example:${port}` };
    for (const path of ["/runs", "/recovery", "/api/runs", "/api/health", "/sign-in", asset]) {
      const response = await raw(port, path, { headers: attacker });
      expect(response.status, path).toBe(403);
      expect(JSON.parse(response.body), path).toMatchObject({ error: { code: "host_not_allowed" } });
    }
    // The replay a rebinding page started: Host and Origin both the attacker's.
    const replay = await raw(port, "/api/runs/order-123/replays", {
      headers: { ...attacker, origin: `http://attacker.example:${port}`, "content-type": "application/json" },
      method: "POST",
      body: JSON.stringify({ mode: "recorded" }),
    });
    expect(replay.status).toBe(403);
    // The loopback names are answered, and so is a name listed in BACKTRACK_ALLOWED_HOSTS.
    expect((await raw(port, "/api/health", { headers: { host: `localhost:${port}` } })).status).toBe(200);
    expect((await raw(HOSTS_PORT, "/api/runs", { headers: { host: `${E2E_ALLOWED_HOST}:${HOSTS_PORT}`, authorization: `Bearer ${E2E_TOKEN}` } })).status).toBe(200);
    expect((await raw(port, "/api/health", { headers: { host: `${E2E_ALLOWED_HOST}:${port}` } })).status).toBe(403);
  });

  test("item 5: in Chromium, a rebinding name is refused and an allowed one signs in on its own host", async ({ playwright, launchOptions }) => {
    const rules = `--host-resolver-rules=MAP attacker.example 127.0.0.1, MAP ${E2E_ALLOWED_HOST} 127.0.0.1`;
    const browser = await playwright.chromium.launch({ ...launchOptions, args: [...(launchOptions.args ?? []), rules] });
    try {
      const page = await browser.newPage();
      const refused = await page.goto(`http://attacker.example:${port}/recovery`);
      expect(refused?.status()).toBe(403);
      await expect(page.getByRole("heading", { name: "Recovery" })).toHaveCount(0);

      const allowed = `http://${E2E_ALLOWED_HOST}:${HOSTS_PORT}`;
      await page.goto(`${allowed}/recovery`);
      await expect(page).toHaveURL(`${allowed}/sign-in?next=%2Frecovery`);
      await page.getByLabel("Token").fill(E2E_TOKEN);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page).toHaveURL(`${allowed}/recovery`);
      await expect(page.getByRole("heading", { name: "Recovery", level: 1 })).toBeVisible();
    } finally {
      await browser.close();
    }
  });

  test("item 5: backtrack start --host hands the bound address to the server, which answers it", async () => {
    // 127.0.0.2 is loopback on Linux but not a default name: only the bound host lets it in.
    const cliPort = HOSTS_PORT + 1;
    const { child, done } = startCli(["start", "--host", "127.0.0.2", "--port", String(cliPort)]);
    try {
      const answered = async () => (await raw(cliPort, "/api/health", { headers: { host: `127.0.0.2:${cliPort}` }, address: "127.0.0.2" }).catch(() => undefined))?.status;
      await expect.poll(answered, { timeout: 60_000 }).toBe(200);
      expect((await raw(cliPort, "/api/health", { headers: { host: `attacker.example:${cliPort}` }, address: "127.0.0.2" })).status).toBe(403);
    } finally {
      child.kill("SIGTERM");
      await done;
    }
  });

  test("item 6: pages, API answers, 404s, static files and refusals carry the security headers", async ({ request }) => {
    const asset = await staticAsset(request);
    const answers: Array<[string, APIResponse]> = [
      ["page", await request.get(`${open}/runs`)],
      ["API", await request.get(`${open}/api/runs`)],
      ["missing page", await request.get(`${open}/no-such-page`)],
      ["missing run", await request.get(`${open}/api/runs/no-such-run`)],
      ["static file", await request.get(`${open}${asset}`)],
      ["cross-origin refusal", await request.post(`${open}/api/recover`, { data: {}, headers: { origin: "http://evil.example" } })],
      ["sign-in redirect", await request.get(`${guarded}/recovery`, { maxRedirects: 0 })],
      ["unauthorized API", await request.get(`${guarded}/api/runs`)],
    ];
    expect(answers.map(([, response]) => response.status())).toEqual([200, 200, 404, 404, 200, 403, 307, 401]);
    for (const [what, response] of answers) expect(response.headers(), what).toMatchObject(SECURITY_HEADERS);
    const refused = await raw(port, "/runs", { headers: { host: "attacker.example" } });
    expect(refused.headers).toMatchObject(SECURITY_HEADERS);
  });

  test("item 6: a page framed by another site does not render in Chromium", async ({ page }) => {
    // The framing site on loopback too (another port, so another origin): Chromium keeps public
    // pages from loading loopback frames at all, which would hide whether the headers work.
    const framer = createServer((_, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end(`<iframe src="${open}/recovery" onload="document.title='framed'" width="800" height="600"></iframe>`);
    });
    await new Promise<void>((resolve) => framer.listen(0, "127.0.0.1", resolve));
    try {
      await page.goto(`http://127.0.0.1:${(framer.address() as AddressInfo).port}/`);
      await expect(page).toHaveTitle("framed");
      const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
      expect(frame?.url()).not.toBe(`${open}/recovery`);
      await expect(page.frameLocator("iframe").getByRole("heading", { name: "Recovery" })).toHaveCount(0);
      await expect(page.frameLocator("iframe").getByRole("button")).toHaveCount(0);
    } finally {
      framer.close();
    }
  });

  test("item 7: ten wrong tokens a minute per client, then 429 with Retry-After, the right token too", async ({ request }) => {
    const client = { "x-forwarded-for": "203.0.113.7" };
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const wrong = await signIn(request, { token: `wrong-${attempt}`, next: "/runs" }, client);
      expect(wrong.status(), `attempt ${attempt}`).toBe(303);
      expect(wrong.headers().location).toContain("error=1");
    }
    const limited = await signIn(request, { token: E2E_TOKEN, next: "/runs" }, client);
    expect(limited.status()).toBe(429);
    const wait = Number(limited.headers()["retry-after"]);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe("too_many_attempts");
    const bearer = await request.get(`${guarded}/api/runs`, { headers: { ...client, authorization: `Bearer ${E2E_TOKEN}` } });
    expect(bearer.status()).toBe(429);
    expect(bearer.headers()["retry-after"]).toBeTruthy();
    // Another client is not held back by this one.
    expect((await request.get(`${guarded}/api/runs`, { headers: { "x-forwarded-for": "203.0.113.8", authorization: `Bearer ${E2E_TOKEN}` } })).status()).toBe(200);
  });

  test("item 7: the session cookie is an HMAC under the server's secret, not a hash of the token", async ({ request }) => {
    const unsalted = createHash("sha256").update(`backtrack-session:${E2E_TOKEN}`).digest("hex");
    expect((await request.get(`${guarded}/api/runs`, { headers: { cookie: `backtrack_session=${unsalted}` } })).status()).toBe(401);
    const signedIn = await signIn(request, { token: E2E_TOKEN, next: "/runs" }, { "x-forwarded-for": "203.0.113.9" });
    const cookie = /backtrack_session=([^;]+)/.exec(signedIn.headers()["set-cookie"] ?? "")?.[1];
    expect(cookie).toBeTruthy();
    expect(cookie).not.toBe(unsalted);
    expect((await request.get(`${guarded}/api/runs`, { headers: { cookie: `backtrack_session=${cookie}` } })).status()).toBe(200);
  });
});

test.describe("item 11: NUL, bad encoding, huge numbers", () => {
  /** 400 or 404 with a typed code, and nothing of the SQL, its parameters or the database's own words. */
  async function expectRefused(response: APIResponse, path: string) {
    expect([400, 404], path).toContain(response.status());
    const text = await response.text();
    const body = JSON.parse(text) as { error: { code: string; message: string } };
    expect(["bad_input", "not_found"], path).toContain(body.error.code);
    expect(text, path).not.toMatch(/select|insert|\$\d|params|\\u0000|out of range for type|invalid byte sequence/i);
  }

  test("the API answers NUL, undecodable paths and huge numbers with 400 or 404 and a typed code", async ({ request }) => {
    const paths = [
      "/api/runs/a%00b",
      "/api/runs/%FF",
      "/api/runs/%FF/records",
      "/api/runs?search=%00",
      "/api/runs?agent=%00",
      "/api/runs?limit=99999999999999999999",
      "/api/runs/a%00b/records",
      "/api/runs/a%00b/state",
      "/api/runs/a%00b/outline",
      "/api/runs/a%00b/mermaid",
      "/api/runs/a%00b/stream",
      "/api/runs/order-123/records?from=99999999999",
      "/api/runs/order-123/records?limit=9007199254740993",
      "/api/runs/order-123/state?at=99999999999",
      "/api/runs/order-123/outline?from=99999999999",
      "/api/runs/order-123/mermaid?at=2147483648",
      "/api/diff?a=a%00b&b=order-123",
      "/api/diff/entries?a=order-123&b=order-123~v2&from=99999999999",
      "/api/sessions/a%00b",
      "/api/sessions/%FF",
      "/api/sessions/a%00b/rebuild",
      "/api/jobs/a%00b",
      "/api/jobs/%FF",
      "/api/replays/a%00b",
      "/api/recover/a%00b",
      "/api/agents?%00=1",
    ];
    for (const path of paths) await expectRefused(await request.get(path), path);
    await expectRefused(await request.post("/api/runs/a%00b/replays", { data: { mode: "recorded" } }), "POST replays");
    await expectRefused(await request.post("/api/runs/a%00b/decisions", { data: { decision: "approve" } }), "POST decisions");
    await expectRefused(await request.post("/api/runs/order-123/answers", { data: { text: "a\u0000b" } }), "POST answers with NUL");
  });

  test("the pages answer the same input with 404 or 400, never a server error", async ({ page }) => {
    for (const [path, status, text] of [
      ["/runs/a%00b", 404, "No such run"],
      ["/runs/%FF", 400, "Bad request"],
      ["/runs?q=%00", 404, "Page not found"],
      ["/runs?agent=a%00", 404, "Page not found"],
      ["/sessions/a%00b", 404, "No such session"],
      ["/sessions/%FF", 400, "Bad request"],
    ] as const) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(status);
      await expect(page.locator("body"), path).toContainText(new RegExp(text, "i"));
      await expect(page.locator("body"), path).not.toContainText(/select|params|invalid byte sequence/i);
    }
    // The diff page drops an id no run could have, and offers its picker.
    const diff = await page.goto("/diff?a=a%00b&b=order-123");
    expect(diff?.status()).toBe(200);
    await expect(page.getByRole("button", { name: /compare/i })).toBeVisible();
    // A step past every integer is clamped to the run's last step, as any step past its end.
    const step = await page.goto("/runs/order-123?at=99999999999");
    expect(step?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("order-123");
    // The ordinary search still works.
    const search = await page.goto("/runs?search=%00");
    expect(search?.status()).toBe(200);
  });
});

test.describe("item 8: secrets redacted on the server", () => {
  const SECRET = { apiKey: "sk-live-e2e9f8e7d6c5b4a3", queryKey: "qK7mZ2pX9wL4", bearer: "bT0k3n-e2e-77aa88bb99cc" };
  const OTHER = "sk-live-e2e0000111122223333";
  const runIds = ["secret-e2e-a", "secret-e2e-b"];

  function jsonl(runId: string, apiKey: string): string {
    const args = { apiKey, url: `https://x.example/charge?api_key=${SECRET.queryKey}`, headers: { authorization: `Bearer ${SECRET.bearer}` } };
    const records = [
      { name: "run:start", kind: "header", payload: { agent: "billing", model: "demo/v1", tools: ["charge"], input: `Charge using ${apiKey}` } },
      {
        name: "turn:0",
        kind: "model",
        payload: { message: { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "charge", args }] }, usage: { inputTokens: 3, outputTokens: 2 } },
      },
      { name: "turn:0:call:0:result", kind: "tool_result", payload: { toolName: "charge", toolCallId: "c1", args, result: { ok: true, token: apiKey }, isError: false } },
    ];
    return records.map((record, seq) => JSON.stringify({ runId, seq, ...record, createdAt: new Date(Date.UTC(2026, 10, 29, 10, 0, seq)).toISOString() })).join("\n");
  }

  function expectNoSecret(text: string, where: string) {
    for (const secret of [...Object.values(SECRET), OTHER]) expect(text.includes(secret), `${where} holds ${secret}`).toBe(false);
  }

  async function ensureRuns(request: APIRequestContext) {
    for (const [index, runId] of runIds.entries()) {
      if ((await request.get(`/api/runs/${runId}`)).status() === 200) continue;
      const imported = await request.post("/api/import", { data: jsonl(runId, index === 0 ? SECRET.apiKey : OTHER), headers: { "content-type": "application/x-ndjson" } });
      expect(imported.status(), await imported.text()).toBe(201);
    }
  }

  test.beforeEach(async ({ request }) => ensureRuns(request));

  test("page HTML, RSC payloads and JSON APIs never hold the secret", async ({ request }) => {
    const [a, b] = runIds;
    const pages = [`/runs/${a}?at=2`, `/runs/${a}?at=1`, `/runs`, `/diff?a=${a}&b=${b}`];
    for (const path of pages) {
      const html = await request.get(path);
      expect(html.status(), path).toBe(200);
      expectNoSecret(await html.text(), `HTML of ${path}`);
      const rsc = await request.get(path, { headers: { RSC: "1" } });
      expect(rsc.status(), path).toBe(200);
      const payload = await rsc.text();
      expect(payload.length, `RSC of ${path}`).toBeGreaterThan(100);
      expectNoSecret(payload, `RSC payload of ${path}`);
    }
    const apis = [
      `/api/runs/${a}`,
      `/api/runs/${a}/records`,
      `/api/runs/${a}/state`,
      `/api/runs/${a}/state?at=1`,
      `/api/runs/${a}/outline`,
      `/api/runs/${a}/mermaid`,
      `/api/runs?search=secret-e2e`,
      `/api/diff?a=${a}&b=${b}`,
      `/api/diff/entries?a=${a}&b=${b}`,
    ];
    for (const path of apis) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(200);
      expectNoSecret(await response.text(), path);
    }
    // The diff still sees the two keys as different.
    const diff = (await (await request.get(`/api/diff?a=${a}&b=${b}`)).json()) as { divergentAt: number | null };
    expect(diff.divergentAt).toBe(0);
  });

  test("Reveal shows the one value in the browser", async ({ page }) => {
    await page.goto(`/runs/${runIds[0]}?at=2`);
    const detail = page.getByTestId("detail");
    await expect(detail).toHaveAttribute("data-loaded", "true");
    await expect(detail).not.toContainText(SECRET.apiKey);
    await detail.getByRole("group", { name: "Arguments" }).getByRole("button", { name: "Reveal apiKey" }).click();
    await expect(detail.getByRole("group", { name: "Arguments" })).toContainText(SECRET.apiKey);
    await detail.getByRole("group", { name: "Arguments" }).getByRole("button", { name: "Reveal url" }).click();
    await expect(detail.getByRole("group", { name: "Arguments" })).toContainText(`api_key=${SECRET.queryKey}`);
  });

  test("Reveal works on the diff page, one side at a time", async ({ page }) => {
    const [a, b] = runIds;
    await page.goto(`/diff?a=${a}&b=${b}&at=1`);
    const detail = page.getByTestId("diff-detail");
    await expect(detail).toHaveAttribute("data-loaded", "true");
    const outputA = detail.getByRole("group", { name: "Output A" });
    const outputB = detail.getByRole("group", { name: "Output B" });
    await expect(outputA).not.toContainText(SECRET.apiKey);
    await outputA.getByRole("button", { name: "Reveal token" }).click();
    await expect(outputA).toContainText(SECRET.apiKey);
    // Only the asked side is revealed: B's secret stays hidden until its own button is pressed.
    await expect(outputB).not.toContainText(OTHER);
    await outputB.getByRole("button", { name: "Reveal token" }).click();
    await expect(outputB).toContainText(OTHER);
  });

  test("Reveal works on the session page, for the state and the event", async ({ page, request }) => {
    const sessionId = await plant("e2e/plant-secret-session.ts", [SECRET.apiKey, SECRET.bearer]);
    const json = await (await request.get(`/api/sessions/${sessionId}?at=1`)).text();
    expectNoSecret(json, "the session API");
    await page.goto(`/sessions/${sessionId}?at=1`);
    const stateTable = page.getByRole("table", { name: "Persisted state" });
    await expect(stateTable).toContainText("pro");
    await expect(stateTable).not.toContainText(SECRET.apiKey);
    await stateTable.getByRole("button", { name: "Reveal apiKey" }).click();
    await expect(stateTable).toContainText(SECRET.apiKey);
    const event = page.getByTestId("session-event");
    await expect(event).not.toContainText(SECRET.bearer);
    const content = event.getByRole("group", { name: "Content" });
    await content.getByRole("button", { name: "Reveal token" }).click();
    await expect(content).toContainText(SECRET.bearer);
    // A pointer outside the event and the state is refused.
    expect((await request.get(`/api/sessions/${sessionId}/reveal?at=1&path=/initialState`)).status()).toBe(400);
  });

  test("reveal is refused in read-only mode and without the token", async ({ request }) => {
    const path = "/api/runs/order-123/records/0/reveal?path=/input";
    const readOnly = await request.get(`http://127.0.0.1:${READ_ONLY_PORT}${path}`);
    expect(readOnly.status()).toBe(403);
    expect(((await readOnly.json()) as { error: { code: string } }).error.code).toBe("read_only");
    const anonymous = await request.get(`http://127.0.0.1:${TOKEN_PORT}${path}`);
    expect(anonymous.status()).toBe(401);
    const signed = await request.get(`http://127.0.0.1:${TOKEN_PORT}${path}`, { headers: { authorization: `Bearer ${E2E_TOKEN}` } });
    expect(signed.status()).toBe(200);
  });
});

const MiB = 1024 * 1024;

function jsonl(lines: object[]): string {
  return lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
}

// The shared server's runs list belongs to the specs that read the demo runs: leave nothing behind.
test.afterAll(async ({ request }) => {
  for (;;) {
    const page = (await (await request.get("/api/runs?search=hostile-&limit=500")).json()) as { runs: Array<{ runId: string; parentRunId: string | null }> };
    const roots = page.runs.filter((run) => run.runId.startsWith("hostile-") && run.parentRunId === null);
    if (roots.length === 0) return;
    for (const run of roots) expect([200, 404]).toContain((await request.delete(`/api/runs/${encodeURIComponent(run.runId)}`)).status());
  }
});

test.describe("items 2, 3: imports and delete", () => {
  test("a 15 MiB import is imported whole (Next's proxy no longer cuts it at 10 MB)", async ({ request }) => {
    // Few runs, many records: the body's size is what the proxy cut, and the other specs' runs list stays the demo's.
    const text = generatedText({ prefix: "hostile-15mib", runs: 6, recordsPerRun: 1_000, payloadChars: 3_400, complete: true });
    expect(Buffer.byteLength(text)).toBeGreaterThan(15 * MiB);
    const response = await request.post("/api/import", { data: Buffer.from(text), headers: { "content-type": "application/x-ndjson" }, timeout: 120_000 });
    expect(response.status()).toBe(201);
    const body = (await response.json()) as { imported: number; runs: string[] };
    expect(body.imported).toBe(6_000);
    expect(body.runs).toHaveLength(6);
    const last = (await (await request.get("/api/runs/hostile-15mib-5")).json()) as { run: { recordCount: number; origin: string } };
    expect(last.run).toMatchObject({ recordCount: 1_000, origin: "import" });
  });

  test("an import over 64 MiB gets 413 import_too_large naming the limit, and nothing is stored", async ({ request }) => {
    const line = JSON.stringify({ runId: "hostile-huge-0", seq: 0, name: "run:start", kind: "header", payload: { agent: "auditor", pad: "x".repeat(1_000) } });
    const body = Buffer.from(`${line}\n`.repeat(Math.ceil((65 * MiB) / (line.length + 1))));
    const response = await request.post("/api/import", { data: body, headers: { "content-type": "application/x-ndjson" }, timeout: 120_000 });
    expect(response.status()).toBe(413);
    const error = ((await response.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("import_too_large");
    expect(error.message).toContain("64 MiB");
    expect((await request.get("/api/runs/hostile-huge-0")).status()).toBe(404);
  });

  test("of two concurrent imports of one run id, one gets 201 and the other 409 run_exists; the run is not mixed", async ({ request }) => {
    const first = generatedText({ prefix: "hostile-race", runs: 1, recordsPerRun: 600, payloadChars: 10 });
    const second = generatedText({ prefix: "hostile-race", runs: 1, recordsPerRun: 599, payloadChars: 20 });
    const answers = await Promise.all([first, second].map((text) => request.post("/api/import", { data: Buffer.from(text), headers: { "content-type": "application/x-ndjson" } })));
    expect(answers.map((answer) => answer.status()).sort()).toEqual([201, 409]);
    const loser = answers.find((answer) => answer.status() === 409);
    expect(((await loser?.json()) as { error: { code: string } }).error.code).toBe("run_exists");
    const run = ((await (await request.get("/api/runs/hostile-race-0")).json()) as { run: { recordCount: number } }).run;
    expect(run.recordCount).toBe(answers[0]?.status() === 201 ? 600 : 599);
  });

  test("DELETE /api/runs/{id} removes the run and its sub-agent runs and says so; a read-only server refuses it", async ({ request }) => {
    const header = (runId: string, parentRunId?: string) => ({
      runId,
      seq: 0,
      name: "run:start",
      kind: "header",
      payload: { agent: "auditor", model: "demo/v1", input: "x", tools: [], ...(parentRunId ? { parentRunId } : {}) },
    });
    const text = jsonl([header("hostile-doomed"), { runId: "hostile-doomed", seq: 1, name: "step", kind: "value", payload: 1 }, header("hostile-doomed.sub", "hostile-doomed")]);
    expect((await request.post("/api/import", { data: Buffer.from(text) })).status()).toBe(201);

    const refused = await request.delete(`http://127.0.0.1:${READ_ONLY_PORT}/api/runs/order-123`);
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("read_only");

    const response = await request.delete("/api/runs/hostile-doomed");
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ deleted: { runs: ["hostile-doomed", "hostile-doomed.sub"], records: 3, leases: 0 } });
    expect((await request.get("/api/runs/hostile-doomed")).status()).toBe(404);
    expect((await request.get("/api/runs/hostile-doomed.sub")).status()).toBe(404);
    const again = await request.delete("/api/runs/hostile-doomed");
    expect(again.status()).toBe(404);
  });
});

test.describe("items 2, 3: imports and delete — imported runs on the recovery board (item 13)", () => {
  test("the board leaves imported unfinished runs out by default and shows them apart, badged, when asked", async ({ page, request }) => {
    const text = generatedText({ prefix: "hostile-imported", runs: 2, recordsPerRun: 1 });
    expect((await request.post("/api/import", { data: Buffer.from(text) })).status()).toBe(201);
    const board = (await (await request.get("/api/recovery")).json()) as { runs: Array<{ runId: string }>; hiddenImported: number };
    expect(board.runs.map((run) => run.runId)).not.toContain("hostile-imported-0");
    expect(board.hiddenImported).toBeGreaterThanOrEqual(2);

    await page.goto("/recovery");
    const unfinished = page.getByRole("table", { name: "Unfinished runs" });
    await expect(unfinished).toBeVisible();
    await expect(unfinished.locator('[data-run="hostile-imported-0"]')).toHaveCount(0);
    await page.getByRole("link", { name: "Show them" }).click();
    await expect(page).toHaveURL(/\/recovery\?imported=1$/);
    const imported = page.getByRole("table", { name: "Imported runs" });
    const row = imported.locator('[data-run="hostile-imported-0"]');
    await expect(row).toBeVisible();
    await expect(row.getByText("imported", { exact: true })).toBeVisible();
    await expect(row.getByText("not driven")).toBeVisible();
    await expect(unfinished.locator('[data-run="hostile-imported-0"]')).toHaveCount(0);
  });
});
