import { expect, test, type Page } from "@playwright/test";

const detail = (page: Page) => page.getByTestId("detail");
const searchBox = (page: Page) => page.getByRole("searchbox", { name: "Search this run" });
const count = (page: Page) => page.getByRole("search").getByRole("status");

test("long-audit: search acct-279, jump between its hits, all from a link that reproduces the view", async ({ page, browser, baseURL }) => {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  await page.goto("/runs/long-audit");
  await searchBox(page).fill("acct-279");
  await searchBox(page).press("Enter");
  await expect(page).toHaveURL(/[?&]q=acct-279(&|$)/);
  // The model turn asking for it, the attempt, the result.
  await expect(count(page)).toHaveText("3 hits");
  await expect(page.getByTestId("timeline-marks")).toHaveAttribute("data-count", "3");

  // Enter again, and "Next match", move the cursor from hit to hit; Shift+Enter and "Previous match" go back.
  await searchBox(page).press("Enter");
  await expect(detail(page)).toHaveAttribute("data-seq", "696");
  await expect(count(page)).toHaveText("hit 1 of 3 hits");
  await page.getByRole("button", { name: "Next match" }).click();
  await expect(detail(page)).toHaveAttribute("data-seq", "699");
  await searchBox(page).press("Enter");
  await expect(detail(page)).toHaveAttribute("data-seq", "700");
  await expect(detail(page).getByRole("heading", { name: /^Tool result: checkAccount/ })).toBeVisible();
  await expect(page.getByRole("slider", { name: "Timeline" })).toHaveValue("700");
  await searchBox(page).press("Shift+Enter");
  await expect(detail(page)).toHaveAttribute("data-seq", "699");
  await page.getByRole("button", { name: "Previous match" }).click();
  await expect(detail(page)).toHaveAttribute("data-seq", "696");
  // The hits are marked in the records list.
  await expect(page.getByTestId("records-list").getByRole("button", { name: /^696 model .* match$/ })).toHaveAttribute("data-hit", "true");
  await expect(page).toHaveURL(/[?&]at=696(&|$)/);

  // "Copy link" gives a link that reproduces the view: the search, its count, the cursor.
  await page.getByRole("button", { name: "Copy link" }).click();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toBe(`${baseURL}/runs/long-audit?at=696&q=acct-279`);
  const fresh = await (await browser.newContext()).newPage();
  await fresh.goto(link);
  await expect(searchBox(fresh)).toHaveValue("acct-279");
  await expect(count(fresh)).toHaveText("hit 1 of 3 hits");
  await expect(detail(fresh)).toHaveAttribute("data-seq", "696");
  await fresh.getByText("Show the hits", { exact: true }).click();
  await fresh.getByRole("list", { name: "Hits" }).getByRole("button").nth(2).click();
  await expect(detail(fresh)).toHaveAttribute("data-seq", "700");
  await fresh.context().close();
});

test("a regular expression, a refused pattern, and the records list narrowed to one kind or to errors", async ({ page }) => {
  await page.goto("/runs/long-audit?q=%2Facct-27%5B89%5D%22%2F");
  await expect(count(page)).toHaveText("5 hits");
  await searchBox(page).fill("/(a+)+/");
  await searchBox(page).press("Enter");
  await expect(page.getByText(/may not itself repeat or alternate/)).toBeVisible();
  await page.getByRole("button", { name: "Clear search" }).click();
  await expect(page).not.toHaveURL(/[?&]q=/);

  const show = page.getByRole("combobox", { name: "Show" });
  await show.selectOption("kind:tool_result");
  await expect(page).toHaveURL(/[?&]show=kind(%3A|:)tool_result(&|$)/);
  await expect(page.getByRole("heading", { name: "Records (600 of 1,503)" })).toBeVisible();
  await show.selectOption("errors");
  await expect(page.getByRole("heading", { name: /^Records \(0 of / })).toBeVisible();
  await expect(page.getByText("No records to show.")).toBeVisible();
});

test("a search never finds, counts or quotes a value the server redacts; a bad pattern is a 400", async ({ page, request }) => {
  const secret = "sk-live-search0e2e9f8e7d6c5";
  const runId = "secret-search-e2e";
  if ((await request.get(`/api/runs/${runId}`)).status() !== 200) {
    const records = [
      { name: "run:start", kind: "header", payload: { agent: "billing", model: "demo/v1", tools: ["charge"], input: "Charge it" } },
      {
        name: "turn:0:call:0:result",
        kind: "tool_result",
        payload: { toolName: "charge", toolCallId: "c1", args: { apiKey: secret, note: "plain words" }, result: { ok: true }, isError: false },
      },
    ];
    const body = records.map((record, seq) => JSON.stringify({ runId, seq, ...record, createdAt: new Date(Date.UTC(2026, 10, 29, 10, 0, seq)).toISOString() })).join("\n");
    const imported = await request.post("/api/import", { data: body, headers: { "content-type": "application/x-ndjson" } });
    expect(imported.status(), await imported.text()).toBe(201);
  }
  for (const q of [secret, "search0e2e", "/e2e9f8/"]) {
    const answer = (await (await request.get(`/api/runs/${runId}/search?q=${encodeURIComponent(q)}`)).json()) as { total: number };
    expect(answer.total, q).toBe(0);
  }
  const named = await request.get(`/api/runs/${runId}/search?q=apiKey`);
  const text = await named.text();
  expect((JSON.parse(text) as { total: number }).total).toBe(1);
  expect(text).not.toContain("search0e2e");
  for (const path of [`/api/runs/${runId}/aggregate`, `/api/runs/${runId}/mermaid?aggregate=1`]) expect(await (await request.get(path)).text(), path).not.toContain("search0e2e");

  const bad = await request.get("/api/runs/long-audit/search?q=%2F(a%2B)%2B%2F");
  expect(bad.status()).toBe(400);
  expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("bad_input");
  await page.goto(`/runs/${runId}?q=plain%20words`);
  await expect(count(page)).toHaveText("1 hit");
  await expect(page.getByRole("list", { name: "Hits" })).toBeHidden();
});
