import { expect, test, type Page } from "@playwright/test";
import { plant } from "./cli";

// The demo (written on the first start of the e2e database) holds the seed's ticket-booking session.
const state = (page: Page) => page.getByTestId("session-state");
const stateRow = (page: Page, key: string) => state(page).locator(`tr[data-key="${key}"]`);
const rebuild = (page: Page) => page.getByTestId("rebuild");

/** Writes the session "direct-write" whose stored snapshot disagrees with its events (e2e/plant-divergence.ts). */
const plantDivergence = () => plant("e2e/plant-divergence.ts");

test("the sessions list: filtered by app and user in the URL, each linking to its page", async ({ page }) => {
  await page.goto("/runs");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sessions" }).click();
  await expect(page).toHaveURL(/\/sessions$/);
  await expect(page.getByRole("heading", { name: "Sessions", level: 1 })).toBeVisible();
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: "ticket-booking" }) });
  await expect(row).toContainText("tickets");
  await expect(row).toContainText("ann");

  await page.getByRole("textbox", { name: "App" }).fill("no-such-app");
  await expect(page).toHaveURL(/[?&]app=no-such-app/);
  await expect(page.getByText("No sessions match these filters.")).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page.getByRole("link", { name: "ticket-booking" })).toBeVisible();

  // The user link sets both filters; the fields follow the URL, and a reload keeps the view.
  await row.getByRole("link", { name: "ann" }).click();
  await expect(page).toHaveURL(/[?&]app=tickets&user=ann|[?&]user=ann&app=tickets/);
  await expect(page.getByRole("textbox", { name: "App" })).toHaveValue("tickets");
  await expect(page.getByRole("textbox", { name: "User" })).toHaveValue("ann");
  await page.reload();
  await expect(page.getByRole("textbox", { name: "User" })).toHaveValue("ann");
  await expect(page.getByRole("link", { name: "ticket-booking" })).toBeVisible();
  await page.getByRole("textbox", { name: "User" }).fill("bea");
  await expect(page.getByText("No sessions match these filters.")).toBeVisible();

  await page.goto("/sessions?app=tickets");
  await page.getByRole("link", { name: "ticket-booking" }).click();
  await expect(page).toHaveURL(/\/sessions\/ticket-booking$/);
  await expect(page.getByRole("heading", { name: "ticket-booking", level: 1 })).toBeVisible();
  // Without ?at the page shows the last event.
  await expect(page.getByRole("slider", { name: "Timeline" })).toHaveValue("6");
});

test("scrubbing ticket-booking: the cart and the discount change event by event, temp:quote is never persisted", async ({ page }) => {
  await page.goto("/sessions/ticket-booking?at=0");
  for (const name of ["Restart", "Previous event", "Play", "Next event", "Copy link", "Rebuild check"]) {
    await expect(page.getByRole("button", { name, exact: true })).toBeVisible();
  }
  await expect(state(page).getByRole("heading", { name: "State before the first event" })).toBeVisible();
  await expect(state(page)).toContainText("Empty.");

  // E1: the user asks; no state change.
  await page.getByRole("button", { name: "Next event", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Event 1 of 6: E1" })).toBeVisible();
  await expect(page.getByTestId("session-event")).toContainText("Add 2 tickets for Friday's show to my cart.");

  // E2: cart 2, highlighted as changed by this event.
  await page.keyboard.press("ArrowRight");
  await expect(page).toHaveURL(/[?&]at=2(&|$)/);
  await expect(state(page).getByRole("heading", { name: "State after event 2 (E2)" })).toBeVisible();
  await expect(stateRow(page, "cart")).toHaveAttribute("data-changed", "");
  await expect(stateRow(page, "cart")).toContainText("2");
  await expect(stateRow(page, "cart")).toContainText("changed: absent → 2");
  await expect(page.getByTestId("session-event").getByRole("group", { name: "State delta" })).toContainText('"cart": 2');
  await expect(page.getByTestId("session-event")).toContainText("booking-agent");
  await expect(page.getByTestId("session-event")).toContainText("inv-1");

  // E3: temp:quote set on the live session only; the persisted state is still cart 2, unchanged.
  await page.keyboard.press("ArrowRight");
  await expect(state(page).getByRole("heading", { name: "State after event 3 (E3)" })).toBeVisible();
  const never = page.getByTestId("temp-keys");
  await expect(never.locator('li[data-key="temp:quote"]')).toContainText("temp: never persisted");
  await expect(never).toContainText("stripped before the event was stored");
  await expect(state(page).getByRole("table", { name: "Persisted state" })).not.toContainText("temp:quote");
  await expect(stateRow(page, "cart")).not.toHaveAttribute("data-changed", "");
  await expect(stateRow(page, "cart")).toContainText("unchanged");

  // E4, E5: cart 2 → 3; temp:quote gone for good.
  await page.getByRole("slider", { name: "Timeline" }).focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(state(page).getByRole("heading", { name: "State after event 5 (E5)" })).toBeVisible();
  await expect(stateRow(page, "cart")).toHaveAttribute("data-changed", "");
  await expect(stateRow(page, "cart")).toContainText("changed: 2 → 3");
  await expect(page.getByTestId("temp-keys")).toHaveCount(0);
  await expect(state(page)).not.toContainText("temp:quote");

  // E6: the VIP discount, recorded as an event.
  await page.getByRole("button", { name: "Next event", exact: true }).click();
  await expect(stateRow(page, "discount")).toHaveAttribute("data-changed", "");
  await expect(stateRow(page, "discount")).toContainText('changed: absent → "VIP"');
  await expect(stateRow(page, "cart")).toContainText("3");
  await expect(stateRow(page, "cart")).not.toHaveAttribute("data-changed", "");
  await expect(page.getByRole("button", { name: "Next event", exact: true })).toBeDisabled();

  // Home, End, clicking an event in the list, and Play to the end.
  await page.keyboard.press("Home");
  await expect(page.getByRole("slider", { name: "Timeline" })).toHaveValue("0");
  await page.getByRole("button", { name: /^Event 5: E5/ }).click();
  await expect(page.getByRole("slider", { name: "Timeline" })).toHaveValue("5");
  await page.getByRole("combobox", { name: "Speed" }).selectOption("8");
  await page.getByRole("button", { name: "Restart", exact: true }).click();
  await page.getByRole("button", { name: "Play", exact: true }).click();
  await expect(page.getByRole("slider", { name: "Timeline" })).toHaveValue("6");
  await expect(page.getByRole("button", { name: "Play", exact: true })).toBeVisible();
});

test("a copied link opened in a fresh page reproduces the view", async ({ page, browser, baseURL }) => {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  await page.goto("/sessions/ticket-booking?at=1");
  await page.getByRole("button", { name: "Next event", exact: true }).click();
  await page.getByRole("button", { name: "Next event", exact: true }).click();
  await expect(page.getByRole("slider", { name: "Timeline" })).toHaveValue("3");
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toBe(`${baseURL}/sessions/ticket-booking?at=3`);

  const fresh = await (await browser.newContext()).newPage();
  await fresh.goto(link);
  await expect(fresh.getByRole("slider", { name: "Timeline" })).toHaveValue("3");
  await expect(fresh.getByRole("heading", { name: "Event 3 of 6: E3" })).toBeVisible();
  await expect(state(fresh).getByRole("heading", { name: "State after event 3 (E3)" })).toBeVisible();
  await expect(fresh.getByTestId("temp-keys").locator('li[data-key="temp:quote"]')).toBeVisible();
  await expect(stateRow(fresh, "cart")).toContainText("2");
  await fresh.context().close();
});

test("the rebuild check: ticket-booking matches; a planted snapshot lists every divergence", async ({ page, request }, testInfo) => {
  await page.goto("/sessions/ticket-booking");
  await page.getByRole("button", { name: "Rebuild check" }).click();
  await expect(rebuild(page).getByRole("status")).toContainText("Matches. Replaying the 6 stored events gives exactly the stored state.");
  const comparison = rebuild(page).getByRole("table", { name: "Rebuild comparison" });
  await expect(comparison.locator('tr[data-key="cart"]')).toContainText("same");
  await expect(comparison.locator('tr[data-key="discount"]')).toContainText('"VIP"');
  await expect(comparison).not.toContainText("diverges");

  // The docs' screenshot: the last event, with the check done. Written to this test's output on
  // every run; BACKTRACK_UPDATE_SCREENSHOTS=1 also refreshes the committed docs/session.png (its
  // timestamps change on every run, so a plain test run leaves the working tree alone).
  await page.screenshot({ path: testInfo.outputPath("session.png"), fullPage: true });
  if (process.env.BACKTRACK_UPDATE_SCREENSHOTS === "1") await page.screenshot({ path: "docs/session.png", fullPage: true });

  const id = await plantDivergence();
  // Newest first: the session just written heads the list.
  await page.goto("/sessions?app=tickets");
  await expect(page.locator("table tbody tr").first()).toContainText(id);
  await expect(page.locator("table tbody tr").nth(1)).toContainText("ticket-booking");
  await page.getByRole("link", { name: id }).click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${id}$`));
  // The page shows what the events say: cart 2, no discount.
  await expect(stateRow(page, "cart")).toContainText("2");
  await expect(stateRow(page, "discount")).toHaveCount(0);
  await page.getByRole("button", { name: "Rebuild check" }).click();
  await expect(rebuild(page).getByRole("status")).toContainText("Diverges: 2 differences.");
  const rows = rebuild(page).getByRole("table", { name: "Rebuild comparison" }).locator("tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute("data-key", "cart");
  await expect(rows.nth(0)).toContainText("5");
  await expect(rows.nth(0)).toContainText("2");
  await expect(rows.nth(0)).toContainText("diverges");
  await expect(rows.nth(1)).toHaveAttribute("data-key", "discount");
  await expect(rows.nth(1)).toContainText('"VIP"');
  await expect(rows.nth(1)).toContainText("absent");

  const report = await request.get(`/api/sessions/${id}/rebuild`);
  expect(report.status()).toBe(200);
  expect(await report.json()).toMatchObject({
    id,
    revision: 2,
    rebuild: { ok: false, eventsFound: 2, summary: 'cart: stored 5, replay gives 2; discount: stored "VIP", replay gives nothing' },
    rows: [
      { key: "cart", replayed: 2, snapshot: 5, matches: false },
      { key: "discount", snapshot: "VIP", matches: false },
    ],
  });
  // Checking reads only: a second check finds the same.
  expect((await (await request.get(`/api/sessions/${id}/rebuild`)).json()).rebuild.ok).toBe(false);
});

test("GET /api/sessions/{id}/rebuild: 404 for an unknown session, 400 for a parameter or a bad id", async ({ request }) => {
  const ok = await request.get("/api/sessions/ticket-booking/rebuild");
  expect(ok.status()).toBe(200);
  expect(await ok.json()).toMatchObject({ id: "ticket-booking", revision: 6, rebuild: { ok: true, differences: [] } });
  const missing = await request.get("/api/sessions/no-such-session/rebuild");
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toEqual({ error: { code: "not_found", message: 'no session with id "no-such-session"' } });
  const extra = await request.get("/api/sessions/ticket-booking/rebuild?at=3");
  expect(extra.status()).toBe(400);
  expect(await extra.json()).toEqual({ error: { code: "bad_input", message: 'unknown parameter "at": the rebuild check takes none' } });
  const long = await request.get(`/api/sessions/${"x".repeat(300)}/rebuild`);
  expect(long.status()).toBe(400);
  expect((await long.json()).error.code).toBe("bad_input");
});

test("an unknown session is a 404 page; the page has a dark theme", async ({ page }) => {
  const response = await page.goto("/sessions/no-such-session");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "No such session" })).toBeVisible();
  await page.getByRole("link", { name: "See all sessions" }).click();
  await expect(page).toHaveURL(/\/sessions$/);

  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/sessions/ticket-booking?at=2");
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(17, 19, 23)");
  // The changed key's highlight is the dark theme's, not a light band.
  expect(await stateRow(page, "cart").evaluate((row) => getComputedStyle(row).backgroundColor)).toBe("rgb(74, 61, 18)");
});
