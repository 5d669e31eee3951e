import { expect, test } from "@playwright/test";

test("the runs list shows the demo runs and links to each run's flowchart", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("link", { name: "order-123", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "long-audit", exact: true })).toBeVisible();
  await page.getByRole("link", { name: "order-123", exact: true }).click();
  await expect(page).toHaveURL(/\/runs\/order-123/);
  const chart = page.getByTestId("flowchart");
  await expect(chart.locator("svg")).toBeVisible();
  for (const label of ["LLM", "tool: chargeCard", "step: run:complete"]) {
    await expect(chart.locator("svg").getByText(label, { exact: true }).first()).toBeVisible();
  }
});

test("an unknown run gives a 404 page", async ({ page }) => {
  const response = await page.goto("/runs/no-such-run");
  expect(response?.status()).toBe(404);
});
