/**
 * Issue 12, tried as a hostile user would, in real Chromium against the built app. Each item has
 * its own describe block.
 */
import { expect, test, type APIRequestContext } from "@playwright/test";
import { E2E_TOKEN, READ_ONLY_PORT, TOKEN_PORT } from "../playwright.config";

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
