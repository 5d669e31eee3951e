/**
 * Protection of the mutating endpoints: cross-origin POSTs are refused, a read-only server hides
 * and refuses every mutation, and BACKTRACK_TOKEN guards pages and API alike.
 */
import { expect, test } from "@playwright/test";
import { E2E_TOKEN, READ_ONLY_PORT, TOKEN_PORT } from "../playwright.config";

const MUTATIONS: Array<{ path: string; data: unknown }> = [
  { path: "/api/runs/order-123/replays", data: { mode: "recorded" } },
  { path: "/api/runs/refund-900/decisions", data: { decision: "approve" } },
  { path: "/api/runs/concierge-5/answers", data: { text: "Saturday" } },
  { path: "/api/runs/payout-9/resolutions", data: { outcome: "retry" } },
  { path: "/api/recover", data: {} },
  { path: "/api/import", data: "" },
];

const readOnly = `http://127.0.0.1:${READ_ONLY_PORT}`;
const guarded = `http://127.0.0.1:${TOKEN_PORT}`;

test("a cross-origin POST to each mutating endpoint is refused", async ({ request }) => {
  for (const { path, data } of MUTATIONS) {
    const response = await request.post(path, { data, headers: { origin: "http://evil.example" } });
    expect(response.status(), path).toBe(403);
    expect(((await response.json()) as { error: { code: string } }).error.code, path).toBe("cross_origin");
  }
});

test("the mutating endpoints take POST only", async ({ request }) => {
  for (const { path } of MUTATIONS) {
    expect((await request.get(path)).status(), path).toBe(405);
  }
});

test("a read-only server hides the mutation controls and refuses the calls", async ({ page, request }) => {
  await page.goto(`${readOnly}/runs/order-123`);
  await expect(page.getByRole("heading", { name: "order-123" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Copy link" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Replay", exact: true })).toHaveCount(0);

  await page.goto(`${readOnly}/recovery`);
  await expect(page.locator('tr[data-run="refund-900"]')).toContainText("pending approval");
  await expect(page.getByText("This inspector is read-only")).toBeVisible();
  await expect(page.locator('tr[data-run="payout-9"]')).toContainText("halted on an unknown outcome");
  for (const name of ["Approve", "Deny", "Send answer", "It succeeded", "It failed", "Retry", "Recover now"]) await expect(page.getByRole("button", { name })).toHaveCount(0);
  await expect(page.getByRole("textbox", { name: "Answer" })).toHaveCount(0);

  for (const { path, data } of MUTATIONS) {
    const response = await request.post(`${readOnly}${path}`, { data });
    expect(response.status(), path).toBe(403);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code, path).toBe("read_only");
    expect(body.error.message).toContain("read-only");
  }
});

test("with BACKTRACK_TOKEN, pages and API refuse a caller without it", async ({ page, request }) => {
  const anonymous = await request.get(`${guarded}/api/recovery`);
  expect(anonymous.status()).toBe(401);
  expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
  const post = await request.post(`${guarded}/api/recover`, { data: {} });
  expect(post.status()).toBe(401);

  const signedIn = await request.get(`${guarded}/api/recovery`, { headers: { authorization: `Bearer ${E2E_TOKEN}` } });
  expect(signedIn.status()).toBe(200);

  await page.goto(`${guarded}/recovery`);
  await expect(page).toHaveURL(/\/sign-in\?next=%2Frecovery/);
  await expect(page.getByRole("button", { name: "Recover now" })).toHaveCount(0);
  await page.getByLabel("Token").fill(E2E_TOKEN);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/recovery$/);
  await expect(page.getByRole("button", { name: "Recover now" })).toBeVisible();
});
