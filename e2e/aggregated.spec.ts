import { expect, test, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";

const chart = (page: Page) => page.getByTestId("flowchart");
const detail = (page: Page) => page.getByTestId("detail");

/** The labels of the drawn nodes, in drawing order. */
async function nodeLabels(page: Page): Promise<string[]> {
  return chart(page)
    .locator("g.node")
    .evaluateAll((nodes) => nodes.map((node) => (node.textContent ?? "").trim()));
}

test("long-audit opens aggregated: its loop as a cycle, the cursor's node, a node's occurrences, and a link that reproduces it", async ({ page, browser }) => {
  await page.goto("/runs/long-audit?at=700");
  await expect(chart(page)).toHaveAttribute("data-view", "aggregated");
  await expect(chart(page).locator("g.node")).toHaveCount(5);
  expect(await nodeLabels(page)).toEqual(["user", "LLM ×301", "tool: checkAccount ×600", "step: run:complete ×1", "done"]);
  // The loop: edges counted, the tool calling itself again (two calls a turn) and going back to the model.
  await expect(chart(page).locator(".edgeLabel", { hasText: "×300" }).first()).toBeVisible();
  const source = await (await page.request.get("/api/runs/long-audit/mermaid?aggregate=1")).text();
  expect(source).toContain("a0 -->|×300| a1\n  a1 -->|×300| a1\n  a1 -->|×300| a0");
  await expect(page.getByRole("button", { name: "Aggregated" })).toHaveAttribute("aria-pressed", "true");

  // The cursor highlights the node of step N, as it moves.
  await expect(chart(page).locator("g.node.current")).toHaveText("tool: checkAccount ×600");
  await page.keyboard.press("End");
  await expect(chart(page).locator("g.node.current")).toHaveText("step: run:complete ×1");

  // Clicking a node lists its steps; previous/next occurrence move the cursor.
  await chart(page).getByRole("button", { name: "Steps of tool: checkAccount (600)" }).click();
  const steps = page.getByRole("region", { name: "Steps of tool: checkAccount" });
  await expect(steps).toContainText("600 steps; 600 before the cursor.");
  await steps.getByRole("button", { name: "Previous occurrence" }).click();
  await expect(detail(page)).toHaveAttribute("data-seq", "1500");
  await expect(steps).toContainText("Step 1500 is occurrence 600 of 600.");
  await steps.getByRole("button", { name: "Previous occurrence" }).click();
  await expect(detail(page)).toHaveAttribute("data-seq", "1498");
  await steps.getByRole("button", { name: "Next occurrence" }).click();
  await expect(detail(page)).toHaveAttribute("data-seq", "1500");
  await expect(chart(page).locator("g.node.current")).toHaveText("tool: checkAccount ×600");

  // The switch is in the URL; the expanded chart is one click away and back.
  await page.getByRole("button", { name: "Expanded" }).click();
  await expect(page).toHaveURL(/[?&]view=expanded(&|$)/);
  await expect(chart(page)).toHaveAttribute("data-view", "expanded");
  await expect(page.getByText(/902 nodes: showing nodes/)).toBeVisible();
  await page.getByRole("button", { name: "Aggregated" }).click();
  await expect(page).toHaveURL(/[?&]view=aggregated(&|$)/);
  await expect(chart(page)).toHaveAttribute("data-view", "aggregated");

  const fresh = await (await browser.newContext()).newPage();
  await fresh.goto(page.url());
  await expect(chart(fresh)).toHaveAttribute("data-view", "aggregated");
  await expect(chart(fresh).locator("g.node.current")).toHaveText("tool: checkAccount ×600");
  await expect(detail(fresh)).toHaveAttribute("data-seq", "1500");
  await fresh.context().close();
});

test("a small run opens expanded; aggregated, it counts its steps and keeps hostile names inert", async ({ page, request }) => {
  await page.goto("/runs/order-123");
  await expect(chart(page)).toHaveAttribute("data-view", "expanded");
  await page.getByRole("button", { name: "Aggregated" }).click();
  await expect(chart(page)).toHaveAttribute("data-view", "aggregated");
  await expect(chart(page).locator("g.node")).toHaveCount(5);
  expect(await nodeLabels(page)).toEqual(["user", "LLM ×2", "tool: chargeCard ×1", "step: run:complete ×1", "done"]);

  await page.goto("/runs/trip-42?view=aggregated");
  await expect(
    chart(page)
      .locator("g.node", { hasText: /^sub-agent: / })
      .first(),
  ).toBeVisible();

  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  // The expanded chart's hostile run, under its own id (inspector.spec.ts imports the original).
  if ((await request.get("/api/runs/hostile-aggregated")).status() !== 200) {
    const body = readFileSync("e2e/fixtures/hostile.jsonl", "utf8").replaceAll('"runId": "hostile-1"', '"runId": "hostile-aggregated"');
    const imported = await request.post("/api/import", { data: body, headers: { "content-type": "application/x-ndjson" } });
    expect(imported.status(), await imported.text()).toBe(201);
  }
  await page.goto("/runs/hostile-aggregated?view=aggregated");
  await expect(chart(page).locator("svg")).toBeVisible();
  await expect(chart(page).locator("g.node", { hasText: 'tool: <img src=x onerror=alert(1)>"]) --> n9["pwn"]' }).first()).toBeVisible();
  await expect(chart(page).locator("g.node", { hasText: "unknown: telemetry ×1" })).toBeVisible();
  for (const selector of ["#injected", "img[src='x']", "iframe", "main script"]) await expect(page.locator(selector)).toHaveCount(0);
  expect(dialogs).toEqual([]);
});
