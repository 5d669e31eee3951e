import { expect, test, type Page } from "@playwright/test";
import { cli, startCli } from "./cli";

const chart = (page: Page) => page.getByTestId("flowchart").locator("svg");
const detail = (page: Page) => page.getByTestId("detail");

/** The labels of the drawn flowchart nodes, in drawing order. */
async function nodeLabels(page: Page): Promise<string[]> {
  return page
    .getByTestId("flowchart")
    .locator("g.node")
    .evaluateAll((nodes) => nodes.map((node) => (node.textContent ?? "").trim()));
}

test("order-123: the flowchart, stepping with the keyboard, and a link that reproduces the view", async ({ page, browser }) => {
  await page.goto("/runs/order-123");
  await expect(chart(page)).toBeVisible();
  expect(await nodeLabels(page)).toEqual(["user", "LLM", "tool: chargeCard", "LLM", "step: run:complete", "done"]);
  await expect(detail(page)).toHaveAttribute("data-seq", "0");

  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(page).toHaveURL(/[?&]at=2(&|$)/);
  await expect(detail(page).getByRole("heading", { name: "Tool call: chargeCard" })).toBeVisible();
  await expect(detail(page).getByRole("group", { name: "Arguments" })).toContainText('"orderId": "123"');
  await expect(page.getByRole("slider", { name: "Timeline" })).toHaveValue("2");
  // At step 2 the model has asked for the call: the LLM node is the current one.
  await expect(page.getByTestId("flowchart").locator("g.node.current")).toHaveText("LLM");
  await expect(page.getByTestId("state")).toContainText("Model turns: 1");

  // The same URL in a fresh browser context shows the same view.
  const url = page.url();
  const fresh = await (await browser.newContext()).newPage();
  await fresh.goto(url);
  await expect(fresh.getByRole("slider", { name: "Timeline" })).toHaveValue("2");
  await expect(detail(fresh).getByRole("heading", { name: "Tool call: chargeCard" })).toBeVisible();
  await expect(fresh.getByTestId("flowchart").locator("g.node.current")).toHaveText("LLM");
  await expect(fresh.getByTestId("state")).toContainText("Model turns: 1");
  await fresh.context().close();
});

test("the timeline's controls: buttons, speed, play, Home and End, and clicking a node", async ({ page }) => {
  await page.goto("/runs/order-123?at=1");
  await expect(chart(page)).toBeVisible();
  for (const name of ["Restart", "Previous event", "Play", "Next event", "Copy link", "Copy Mermaid source", "Download SVG"]) {
    await expect(page.getByRole("button", { name, exact: true })).toBeVisible();
  }
  await page.getByRole("button", { name: "Next event", exact: true }).click();
  await expect(page).toHaveURL(/at=2/);
  await page.getByRole("button", { name: "Previous event", exact: true }).click();
  await expect(page).toHaveURL(/at=1/);
  await page.keyboard.press("End");
  await expect(detail(page)).toHaveAttribute("data-seq", "5");
  await expect(detail(page).getByRole("heading", { name: "Run complete" })).toBeVisible();
  await page.keyboard.press("Home");
  await expect(detail(page)).toHaveAttribute("data-seq", "0");
  await page.getByRole("combobox", { name: "Speed" }).selectOption("8");
  await page.getByRole("button", { name: "Play", exact: true }).click();
  await expect(page.getByRole("button", { name: "Pause", exact: true })).toBeVisible();
  // Playback stops at the last step.
  await expect(detail(page)).toHaveAttribute("data-seq", "5");
  await expect(page.getByRole("button", { name: "Play", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Restart", exact: true }).click();
  await expect(detail(page)).toHaveAttribute("data-seq", "0");
  // Space plays from anywhere on the page but a field or a button (there it presses the button).
  await page.getByRole("heading", { name: "order-123" }).click();
  await page.keyboard.press("Space");
  await expect(page.getByRole("button", { name: "Pause", exact: true })).toBeVisible();
  await page.keyboard.press("Space");
  await expect(page.getByRole("button", { name: "Play", exact: true })).toBeVisible();
  // Clicking a node moves the cursor there.
  await page.getByTestId("flowchart").locator("g.node", { hasText: "tool: chargeCard" }).click();
  await expect(detail(page)).toHaveAttribute("data-seq", "3");
  await expect(detail(page).getByRole("heading", { name: /Tool result: chargeCard/ })).toBeVisible();
});

test("a run written while its page is open gains nodes without a reload", async ({ page }) => {
  const live = startCli(["demo", "--live", "--run-id", "live-e2e", "--accounts", "6", "--interval", "400"]);
  await expect.poll(async () => (await page.request.get("/api/runs/live-e2e")).status(), { timeout: 30_000 }).toBe(200);
  await page.goto("/runs/live-e2e");
  await expect(chart(page)).toBeVisible();
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
  const before = (await nodeLabels(page)).length;
  await expect.poll(async () => (await nodeLabels(page)).length, { timeout: 30_000 }).toBeGreaterThan(before);
  await expect(page.getByTestId("flowchart").locator("g.node", { hasText: "done" })).toBeVisible({ timeout: 30_000 });
  expect((await live.done).code).toBe(0);
  const labels = await nodeLabels(page);
  expect(labels.filter((label) => label === "tool: checkAccount")).toHaveLength(6);
  expect(labels.at(-1)).toBe("done");
  // Nothing reloaded the page.
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
});

test("tool names and outputs made of HTML and Mermaid syntax render as text", async ({ page }) => {
  await cli(["import", "e2e/fixtures/hostile.jsonl"]);
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto("/runs/hostile-1?at=3");
  await expect(chart(page)).toBeVisible();
  const tool = 'tool: <img src=x onerror=alert(1)>"]) --> n9["pwn"] click n0 call alert()';
  // The label is cut in the chart, but every character of it is text.
  await expect(page.getByTestId("flowchart").locator("g.node.current")).toContainText('tool: <img src=x onerror=alert(1)>"]) --> n9["pwn"]');
  await expect(detail(page).getByRole("heading", { name: `Tool result: ${tool.slice("tool: ".length)} ok` })).toBeVisible();
  await expect(detail(page).getByRole("group", { name: "Result" })).toContainText('"<script>alert(3)</script><b id=\\"injected\\">x</b>"');
  // The record of a kind this version does not know is shown as such.
  await page.keyboard.press("ArrowRight");
  await expect(detail(page).getByRole("heading", { name: "Record of unknown kind “telemetry”" })).toBeVisible();
  await expect(page.getByTestId("flowchart").locator("g.node.current")).toHaveText("unknown: telemetry");
  // No script ran and no element was injected, in the chart, the lists or the detail.
  for (const selector of ["#injected", "#injected-text", "img[src='x']", "img[src='y']", "iframe", "main script"]) {
    await expect(page.locator(selector)).toHaveCount(0);
  }
  expect(dialogs).toEqual([]);
});

test("the payload viewer collapses, cuts long strings and hides secrets until revealed", async ({ page }) => {
  await page.goto("/runs/hostile-1?at=3");
  const result = detail(page).getByRole("group", { name: "Result" });
  await expect(result).toContainText("•••••• redacted");
  await expect(result).not.toContainText("hunter2");
  await result.getByRole("button", { name: "Reveal password" }).click();
  await expect(result).toContainText('"hunter2"');
  await expect(result.getByRole("button", { name: "Show all (1,200 characters)" })).toBeVisible();
  await result.getByRole("button", { name: "Show all (1,200 characters)" }).click();
  await expect(result.getByRole("button", { name: /Show all/ })).toHaveCount(0);
  await result.locator("summary").first().click();
  await expect(result).not.toContainText("hunter2");
  // Secrets are hidden in the conversation's excerpts too.
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByTestId("state")).not.toContainText("sk-secret-123");
  await expect(detail(page).getByRole("group", { name: /Arguments of/ })).toContainText("•••••• redacted");
});

test("the long demo run, expanded, opens on a window of its flowchart and scrubs", async ({ page }) => {
  await page.goto("/runs/long-audit?at=700&view=expanded");
  await expect(chart(page)).toBeVisible();
  await expect(page.getByText(/902 nodes: showing nodes 361–450 around the cursor/)).toBeVisible();
  const labels = await nodeLabels(page);
  expect(labels.length).toBeLessThan(100);
  expect(labels[1]).toBe("… 360 steps …");
  await expect(page.getByTestId("flowchart").locator("g.node.current")).toHaveText("tool: checkAccount");
  await expect(detail(page)).toHaveAttribute("data-seq", "700");
  for (let step = 701; step <= 705; step += 1) {
    await page.keyboard.press("ArrowRight");
    await expect(detail(page)).toHaveAttribute("data-seq", String(step));
  }
  await expect(detail(page)).toHaveAttribute("data-loaded", "true");
  // Far away: the chart redraws around the new cursor once the scrubbing stops.
  await page.keyboard.press("End");
  await expect(detail(page).getByRole("heading", { name: "Run complete" })).toBeVisible();
  await expect(page.getByText(/showing nodes 813–902 around the cursor/)).toBeVisible();
  await expect(page.getByTestId("flowchart").locator("g.node.current")).toHaveText("step: run:complete");
  await expect(page.getByTestId("records-list").getByRole("button", { name: "1502 value run:complete" })).toBeVisible();
  // A collapsed node opens the steps it hides.
  await page.getByTestId("flowchart").locator("g.node", { hasText: "… 812 steps …" }).click();
  await expect(page.getByText(/showing nodes 7\d\d–8\d\d around the cursor/)).toBeVisible();
});

test("a sub-agent run is a linked node that opens the child run", async ({ page }) => {
  await page.goto("/runs/trip-42?at=4");
  await expect(chart(page)).toBeVisible();
  await page.getByTestId("flowchart").getByRole("link", { name: "Open sub-agent run trip-42.t0c0" }).click();
  await expect(page).toHaveURL(/\/runs\/trip-42\.t0c0/);
  const parent = page.getByRole("listitem").filter({ hasText: "sub-agent of" }).getByRole("link", { name: "trip-42", exact: true });
  await parent.click();
  await expect(page).toHaveURL(/\/runs\/trip-42$/);
});

test("themes, and no request leaves the server", async ({ page }) => {
  const origin = new URL(page.context().pages()[0]?.url() || "http://127.0.0.1").origin;
  const outside: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (!["127.0.0.1", "localhost"].includes(url.hostname) && !url.protocol.startsWith("data") && !url.protocol.startsWith("blob")) outside.push(request.url());
  });
  await page.goto("/runs/order-123?at=3");
  await expect(chart(page)).toBeVisible();
  await page.getByRole("combobox", { name: "Theme" }).selectOption("dark");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect(chart(page)).toBeVisible();
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(17, 19, 23)");
  await page.getByRole("combobox", { name: "Theme" }).selectOption("light");
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(255, 255, 255)");
  await page.goto("/runs");
  expect(outside, `requests outside ${origin}`).toEqual([]);
});
