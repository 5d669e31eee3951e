/** Hostile input against the built app (issue 12's hardening items), over real HTTP and in Chromium. */
import { expect, test, type APIResponse } from "@playwright/test";

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
