/** Hostile input against the built app (issue 12's hardening items), over real HTTP and in Chromium. */
import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { E2E_TOKEN, READ_ONLY_PORT, TOKEN_PORT } from "../playwright.config";

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
      { name: "turn:0", kind: "model", payload: { message: { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "charge", args }] }, usage: { inputTokens: 3, outputTokens: 2 } } },
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
    const apis = [`/api/runs/${a}`, `/api/runs/${a}/records`, `/api/runs/${a}/state`, `/api/runs/${a}/state?at=1`, `/api/runs/${a}/outline`, `/api/runs/${a}/mermaid`, `/api/runs?search=secret-e2e`, `/api/diff?a=${a}&b=${b}`, `/api/diff/entries?a=${a}&b=${b}`];
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
