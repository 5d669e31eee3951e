import { expect, test, type Page } from "@playwright/test";

/**
 * The runs list's Cost column (issue 43): priced with the server's table, as the run header is,
 * sortable both ways from its header with unknown costs last, the order in the URL.
 */
const AGENT = "cost-e2e";

/** A run of `agent` with one model turn per entry of `turns` ([model, input tokens, output tokens]). */
function jsonl(runId: string, turns: Array<[string, number, number]>, agent = AGENT): string {
  const lines = [{ runId, seq: 0, name: "run:start", kind: "header", payload: { agent, input: `priced ${runId}` } }];
  turns.forEach(([model, inputTokens, outputTokens], index) => {
    lines.push({
      runId,
      seq: index + 1,
      name: `model:${index}`,
      kind: "model",
      payload: { model, usage: { inputTokens, outputTokens }, message: { role: "assistant", content: "ok" } },
    } as never);
  });
  return lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
}

async function order(page: Page): Promise<string[]> {
  const links = page.getByTestId("runs-scroller").getByRole("link");
  return links.allTextContents();
}

test("the runs list prices each run and sorts by cost both ways with unknown costs last", async ({ page, request }) => {
  const body = [
    jsonl("cost-e2e-dear", [["gpt-4o", 400_000, 100_000]]),
    jsonl("cost-e2e-cheap", [["gpt-4o", 1_000, 100]]),
    jsonl("cost-e2e-free", []),
    jsonl("cost-e2e-unknown", [["no-such-model-anywhere", 50, 50]]),
  ].join("");
  const imported = await request.post("/api/import", { data: body, headers: { "content-type": "application/x-ndjson" } });
  expect(imported.status()).toBe(201);

  await page.goto(`/runs?agent=${AGENT}`);
  const header = page.getByRole("columnheader", { name: /cost/i });
  await expect(header).toHaveAttribute("aria-sort", "none");
  const row = (runId: string) => page.getByRole("row").filter({ has: page.getByRole("link", { name: runId, exact: true }) });
  await expect(row("cost-e2e-unknown").getByTestId("run-cost")).toHaveText("—");
  await expect(row("cost-e2e-free").getByTestId("run-cost")).toHaveText("$0.00");
  const listed = await row("cost-e2e-dear").getByTestId("run-cost").textContent();
  expect(listed).toMatch(/^\$\d/);

  await page.getByRole("button", { name: "Cost: sort dearest first" }).click();
  await expect(page).toHaveURL(/sort=cost/);
  await expect(header).toHaveAttribute("aria-sort", "descending");
  await expect.poll(() => order(page)).toEqual(["cost-e2e-dear", "cost-e2e-cheap", "cost-e2e-free", "cost-e2e-unknown"]);

  await page.getByRole("button", { name: "Cost: sort cheapest first" }).click();
  await expect(page).toHaveURL(/order=asc/);
  await expect(header).toHaveAttribute("aria-sort", "ascending");
  await expect.poll(() => order(page)).toEqual(["cost-e2e-free", "cost-e2e-cheap", "cost-e2e-dear", "cost-e2e-unknown"]);

  // The link reproduces the order; the header's third click goes back to newest first.
  await page.reload();
  await expect.poll(() => order(page)).toEqual(["cost-e2e-free", "cost-e2e-cheap", "cost-e2e-dear", "cost-e2e-unknown"]);
  await page.getByRole("button", { name: "Cost: sort newest first" }).click();
  await expect(page).not.toHaveURL(/sort=/);
  await expect(header).toHaveAttribute("aria-sort", "none");

  // The list's cost is the run header's.
  await page.getByRole("link", { name: "cost-e2e-dear", exact: true }).click();
  await expect(page.getByLabel("Run cost").first()).toHaveText(listed!);
});

test("the API sorts by cost and refuses a bad sort or a cursor of another order", async ({ request }) => {
  const agent = "cost-e2e-api";
  const body = jsonl("cost-api-1", [["gpt-4o", 10, 10]], agent) + jsonl("cost-api-2", [["gpt-4o", 20, 20]], agent);
  expect((await request.post("/api/import", { data: body, headers: { "content-type": "application/x-ndjson" } })).status()).toBe(201);
  expect((await request.get("/api/runs?sort=price")).status()).toBe(400);
  const first = await request.get(`/api/runs?agent=${agent}&sort=cost&limit=1`);
  expect(first.status()).toBe(200);
  const page = (await first.json()) as { runs: Array<{ runId: string; costUsd: number | null }>; nextCursor: string | null };
  expect(page.runs.map((run) => run.runId)).toEqual(["cost-api-2"]);
  expect(page.runs[0]?.costUsd).toBeGreaterThan(0);
  const next = await request.get(`/api/runs?agent=${agent}&sort=cost&limit=1&cursor=${page.nextCursor}`);
  expect(((await next.json()) as { runs: Array<{ runId: string }> }).runs.map((run) => run.runId)).toEqual(["cost-api-1"]);
  const mixed = await request.get(`/api/runs?agent=${agent}&sort=cost&order=asc&cursor=${page.nextCursor}`);
  expect(mixed.status()).toBe(400);
});
