import { expect, test, type Page } from "@playwright/test";

// The demo (written on the first start of the e2e database) holds order-123 and its replay under
// demo/v2, order-123~v2: three decision points, all changed, diverging at the chargeCard decision (row 0).
const PAIR = "/diff?a=order-123&b=order-123~v2";
const rows = (page: Page) => page.getByTestId("diff-rows");
const row = (page: Page, index: number) => rows(page).locator(`button[data-index="${index}"]`);
const detail = (page: Page) => page.getByTestId("diff-detail");

async function expectSelected(page: Page, index: number) {
  await expect(row(page, index)).toHaveAttribute("aria-current", "true");
  await expect(row(page, index)).toBeInViewport();
  await expect(detail(page)).toHaveAttribute("data-index", String(index));
  await expect(detail(page)).toHaveAttribute("data-loaded", "true");
}

test("order-123 against its demo/v2 replay: labelled rows, opened on the chargeCard divergence, word and JSON diffs", async ({ page }, testInfo) => {
  await page.goto(PAIR);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Diff order-123 → order-123~v2");
  await expect(page).toHaveTitle("order-123 → order-123~v2 · Diff · Backtrack");
  // Each row says its status in words (and colour, by class).
  await expect(row(page, 0)).toContainText("changed");
  await expect(row(page, 0)).toContainText("LLM → chargeCard");
  await expect(row(page, 0)).toHaveClass(/diff-changed/);
  await expect(row(page, 1)).toContainText("tool: chargeCard");
  await expect(row(page, 2)).toContainText("LLM:");
  await expect(page.getByRole("list", { name: "Summary" })).toContainText("3 changed");
  await expect(page.getByRole("list", { name: "Summary" })).toContainText("first divergence at row 0");

  // No ?at: the first divergence is selected and in view: the chargeCard decision, $500 → $5000.
  await expectSelected(page, 0);
  await expect(detail(page)).toContainText("The first divergence");
  await expect(detail(page).getByRole("heading", { level: 2 })).toContainText("step 0 · model decision · changed");
  const args = detail(page).getByRole("list", { name: "Arguments of call 1: A → B" });
  await expect(args.locator("li")).toHaveText(["amount changed 500 → 5000"]);
  await expect(args.locator("del")).toHaveText("500");
  await expect(args.locator("ins")).toHaveText("5000");
  // Both flowcharts are drawn, each with the divergent node (the first LLM) marked.
  const charts = page.getByTestId("diff-charts");
  await expect(charts.getByTestId("flowchart")).toHaveCount(2);
  for (const chart of await charts.getByTestId("flowchart").all()) await expect(chart.locator("g.node.diverged")).toHaveText("LLM");

  // Selecting a row sets ?at=N; the tool row diffs the outputs, the last row the answers word by word.
  await row(page, 1).click();
  await expect(page).toHaveURL(/[?&]at=1(&|$)/);
  await expectSelected(page, 1);
  await expect(detail(page).getByRole("list", { name: "Output: A → B" })).toContainText("charged changed 500 → 5000");
  await page.keyboard.press("ArrowRight");
  await expect(page).toHaveURL(/[?&]at=2(&|$)/);
  await expectSelected(page, 2);
  const words = detail(page).getByTestId("word-diff");
  await expect(words.locator("del").first()).toBeVisible();
  await expect(words.locator("ins").first()).toBeVisible();
  await expect(words).toContainText("Charged");
  await expect(words).toContainText("USD");
  await expect(detail(page)).toContainText("After the first divergence: compared by position");
  await page.keyboard.press("ArrowLeft");
  await expect(page).toHaveURL(/[?&]at=1(&|$)/);

  // The docs' screenshot (see sessions.spec.ts for why docs/ only with BACKTRACK_UPDATE_SCREENSHOTS=1).
  await page.goto(PAIR);
  await expect(detail(page)).toHaveAttribute("data-loaded", "true");
  for (const chart of await page.getByTestId("flowchart").all()) await expect(chart).toHaveAttribute("data-drawing", "false");
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.screenshot({ path: testInfo.outputPath("diff.png"), fullPage: true });
  if (process.env.BACKTRACK_UPDATE_SCREENSHOTS === "1") await page.screenshot({ path: "docs/diff.png", fullPage: true });
});

test("Realign: the toggle sets realign=1, the note says the rows are realigned, and off again", async ({ page }) => {
  await page.goto(`${PAIR}&at=1`);
  const note = page.getByTestId("alignment-note");
  await expect(note).toContainText("Aligned by position after the first divergence");
  const toggle = page.getByRole("checkbox", { name: "Realign" });
  await expect(toggle).not.toBeChecked();
  await toggle.check();
  await expect(page).toHaveURL(/[?&]realign=1(&|$)/);
  await expect(note).toContainText("Realigned after row 0");
  await expect(page.getByRole("checkbox", { name: "Realign" })).toBeChecked();
  await expect(row(page, 1)).toContainText("realigned");
  // The cursor stays where it was.
  await expectSelected(page, 1);
  await expect(detail(page)).toContainText("Placed by realignment");
  await page.getByRole("checkbox", { name: "Realign" }).uncheck();
  await expect(page).not.toHaveURL(/realign=/);
  await expect(note).toContainText("Aligned by position");
});

test("Copy link reproduces the view in a fresh context; Copy as Markdown summarises it for a pull request", async ({ page, browser, baseURL }) => {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  await page.goto(PAIR);
  await expectSelected(page, 0);
  await row(page, 2).click();
  await expectSelected(page, 2);
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toBe(`${baseURL}/diff?a=order-123&b=order-123%7Ev2&at=2`);

  const fresh = await (await browser.newContext()).newPage();
  await fresh.goto(link);
  await expectSelected(fresh, 2);
  await expect(fresh.getByTestId("word-diff")).toContainText("USD");
  await fresh.context().close();

  await page.getByRole("button", { name: "Copy as Markdown" }).click();
  const markdown = await page.evaluate(() => navigator.clipboard.readText());
  expect(markdown).toContain("`order-123` → `order-123~v2`");
  expect(markdown).toContain("0 same · 3 changed · 0 missing · 0 added");
  expect(markdown).toContain("First divergence: row 0");
  expect(markdown).toContain('"amount":500');
  expect(markdown).toContain('"amount":5000');
  expect(markdown).toContain(`(<${link}>)`);
});

test("an unknown run id is a clear message; without a and b the page offers a form", async ({ page }) => {
  await page.goto("/diff?a=order-123&b=no-such-run");
  await expect(page.getByRole("alert").filter({ hasText: "No such run" })).toContainText("No such run");
  await expect(page.getByRole("alert").filter({ hasText: "No such run" })).toContainText('no run with id "no-such-run"');

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Diff" }).click();
  await expect(page).toHaveURL(/\/diff$/);
  await expect(page.getByRole("heading", { name: "Compare two runs" })).toBeVisible();
  await page.getByRole("combobox", { name: "Run A (base)" }).fill("order-123");
  await page.getByRole("combobox", { name: "Run B (new)" }).fill("order-123~v2");
  await page.getByRole("button", { name: "Compare" }).click();
  await expect(page).toHaveURL(/\/diff\?a=order-123&b=order-123%7Ev2$/);
  await expectSelected(page, 0);
});

test("the run page's Compare with… opens the diff of this run against another", async ({ page }) => {
  await page.goto("/runs/order-123");
  const field = page.getByRole("combobox", { name: "Compare with run" });
  await field.fill("order-123~v2");
  await page.getByRole("button", { name: "Compare", exact: true }).click();
  await expect(page).toHaveURL(/\/diff\?a=order-123&b=order-123%7Ev2$/);
  await expectSelected(page, 0);
});
