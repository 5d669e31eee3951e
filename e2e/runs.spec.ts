import { expect, test, type Locator, type Page } from "@playwright/test";
import { UNREACHABLE_PORT } from "../playwright.config";
import { startCli } from "./cli";

/** The run's link in the list, scrolled to as a user would: other specs' runs, newer, come first and
 * only the rows in view are in the document. */
async function scrolledTo(page: Page, runId: string): Promise<Locator> {
  const link = page.getByRole("link", { name: runId, exact: true });
  const scroller = page.getByTestId("runs-scroller");
  await expect(scroller).toBeVisible();
  await scroller.evaluate((element) => element.scrollTo(0, 0));
  for (let step = 0; step < 60 && !(await link.isVisible()); step += 1) {
    await scroller.evaluate((element) => element.scrollBy(0, 300));
    await page.waitForTimeout(50);
  }
  return link;
}

test("the runs list shows the demo runs and links to each run's flowchart", async ({ page }) => {
  await page.goto("/");
  await expect(await scrolledTo(page, "long-audit")).toBeVisible();
  await expect(await scrolledTo(page, "order-123")).toBeVisible();
  await page.getByRole("link", { name: "order-123", exact: true }).click();
  await expect(page).toHaveURL(/\/runs\/order-123/);
  const chart = page.getByTestId("flowchart");
  await expect(chart.locator("svg")).toBeVisible();
  for (const label of ["LLM", "tool: chargeCard", "step: run:complete"]) {
    await expect(chart.locator("svg").getByText(label, { exact: true }).first()).toBeVisible();
  }
});

test("the runs list filters by status and agent and searches ids and input, all in the URL", async ({ page }) => {
  await page.goto("/runs");
  await page.getByRole("searchbox", { name: "Search runs by id or input" }).fill("LISBON");
  await expect(page).toHaveURL(/q=LISBON/);
  await expect(page.getByRole("link", { name: "trip-42", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "order-123", exact: true })).toHaveCount(0);
  await page.getByRole("searchbox", { name: "Search runs by id or input" }).fill("");
  await page.getByRole("combobox", { name: "Agent" }).selectOption("billing");
  await expect(page).toHaveURL(/agent=billing/);
  await expect(page.getByRole("link", { name: "order-404", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "trip-42", exact: true })).toHaveCount(0);
  // The URL reproduces the view.
  await page.goto("/runs?agent=planner");
  await expect(page.getByRole("link", { name: "trip-42", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "order-123", exact: true })).toHaveCount(0);
  await page.goto("/runs?status=failed");
  await expect(page.getByText("No runs match these filters.")).toBeVisible();
});

test("a run written while the list is open appears and its status changes without a reload", async ({ page }) => {
  await page.goto("/runs");
  await expect(page.getByText("live", { exact: true })).toBeVisible();
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
  const live = startCli(["demo", "--live", "--run-id", "live-list", "--accounts", "2", "--interval", "300"]);
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: "live-list", exact: true }) });
  await expect(row).toBeVisible();
  await expect(row.getByText("complete")).toBeVisible({ timeout: 30_000 });
  expect((await live.done).code).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
});

test("an unknown run gives a 404 page", async ({ page }) => {
  const response = await page.goto("/runs/no-such-run");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "No such run" })).toBeVisible();
});

test("an unreachable database gives a page that says what to check", async ({ page }) => {
  await page.goto(`http://127.0.0.1:${UNREACHABLE_PORT}/runs`);
  await expect(page.getByRole("heading", { name: "The database cannot be opened" })).toBeVisible();
  await expect(page.getByText("postgres://postgres@127.0.0.1:1/backtrack_unreachable", { exact: true })).toBeVisible();
  await expect(page.getByText(/Is the PostgreSQL server running/)).toBeVisible();
  await page.goto(`http://127.0.0.1:${UNREACHABLE_PORT}/runs/order-123`);
  await expect(page.getByRole("heading", { name: "The database cannot be opened" })).toBeVisible();
});
