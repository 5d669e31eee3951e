/**
 * The playground in Chromium (issue 43): on the demo's order-123, Try this step at the charge
 * decision opens its journaled request; ten tries with an edited system prompt show the split and
 * word diffs; Fork with this goes live from a chosen try. And the tries API's answers and errors.
 */
import { expect, test } from "@playwright/test";

const EDITED = "You are the billing agent. Confirm the amount with the customer when in doubt.";

// The shared server's runs list belongs to the specs that read the demo runs: leave no try behind.
test.afterAll(async ({ request }) => {
  const page = (await (await request.get("/api/runs?search=order-123~try-&limit=500")).json()) as { runs: Array<{ runId: string }> };
  const ids = page.runs.map((run) => run.runId).sort((a, b) => b.length - a.length);
  for (const id of ids) expect([200, 404]).toContain((await request.delete(`/api/runs/${encodeURIComponent(id)}`)).status());
});

test("try the charge decision ten times with an edited system prompt, see the split, and fork a try live", async ({ page }) => {
  await page.goto("/runs/order-123?at=1");
  await expect(page.getByRole("slider", { name: "Timeline" })).toHaveValue("1");
  await page.getByRole("button", { name: "Try this step" }).click();
  const dialog = page.getByRole("dialog", { name: "Try step 1 of order-123" });
  const system = dialog.getByLabel("System prompt");
  await expect(system).toHaveValue("You are the billing agent. Charge orders as asked.");
  await expect(dialog.getByLabel("Messages (JSON)")).toHaveValue(/Please charge order 123\./);
  await system.fill(EDITED);
  await expect(dialog.getByLabel("Tries")).toHaveValue("10");
  await dialog.getByRole("button", { name: "Run tries" }).click();
  const tries = dialog.getByRole("region", { name: "Tries" });
  await expect(tries.getByText(/^tool `chargeCard` in \d+ of 10; text in \d+ of 10; amount differs in \d+; \d+ of 10 as recorded$/)).toBeVisible();
  await expect(tries.getByRole("listitem")).toHaveCount(10);
  // An asking try's word diff marks the text it added against the recorded call.
  const asking = tries.getByRole("listitem").filter({ hasText: "shall I charge" }).first();
  await expect(asking.locator("ins").first()).toBeVisible();
  // Fork with this, from a try that charged: the fork goes on live and its page opens.
  const charging = tries.getByRole("listitem").filter({ hasText: '"amount":500' }).first();
  await charging.getByRole("button", { name: "Fork with this" }).click();
  await expect(page).toHaveURL(/\/runs\/order-123~try-\d+~fork-1/, { timeout: 30_000 });
  await expect(page.getByRole("slider", { name: "Timeline" })).toBeVisible();
});

test("the tries API: the journaled request, tries with their runs, and typed refusals that write nothing", async ({ request }) => {
  const asked = await request.get("/api/runs/order-123/tries?at=1");
  expect(asked.status()).toBe(200);
  expect(await asked.json()).toMatchObject({ at: 1, turn: 0, model: "demo/v1", system: "You are the billing agent. Charge orders as asked.", tools: ["chargeCard"] });
  const tried = await request.post("/api/runs/order-123/tries", { data: { at: 1, times: 3 } });
  expect(tried.status()).toBe(200);
  const body = (await tried.json()) as { tries: Array<{ runId: string }>; summary: { times: number } };
  expect(body.summary.times).toBe(3);
  const first = (await (await request.get(`/api/runs/${encodeURIComponent(body.tries[0]!.runId)}`)).json()) as { run: { origin: string; forkedFrom: unknown } };
  expect(first.run).toMatchObject({ origin: "playground", forkedFrom: { runId: "order-123", at: 1 } });
  const before = ((await (await request.get("/api/runs?limit=500")).json()) as { runs: unknown[] }).runs.length;
  for (const [data, status, code] of [
    [{ at: 0 }, 400, "bad_input"],
    [{ at: 2 }, 400, "bad_try"],
    [{ at: 1, times: 21 }, 400, "bad_input"],
    [{ at: 1, model: "gpt-nope" }, 422, "missing_model"],
  ] as const) {
    const answer = await request.post("/api/runs/order-123/tries", { data });
    expect(answer.status(), JSON.stringify(data)).toBe(status);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe(code);
  }
  expect((await request.post("/api/runs/no-such-run/tries", { data: { at: 1 } })).status()).toBe(404);
  expect(((await (await request.post("/api/tries/order-123/fork", { data: {} })).json()) as { error: { code: string } }).error.code).toBe("bad_try");
  expect(((await (await request.get("/api/runs?limit=500")).json()) as { runs: unknown[] }).runs.length).toBe(before);
});
