/**
 * Time travel from the inspector: fork order-123 at its tool result with an edited result and land
 * on the diff (rows before the step "same (copied)", the step "edited"); a chargeCard-style external
 * tool does not fire without "Allow external effects"; lineage on the run pages and the runs list;
 * the fork API's answers and errors.
 */
import { expect, test, type APIRequestContext } from "@playwright/test";

interface DiffBody {
  divergentAt: number | null;
  steps: Array<{ kind: string; status: string; detail: Record<string, unknown> }>;
}

async function run(request: APIRequestContext, runId: string) {
  return ((await (await request.get(`/api/runs/${encodeURIComponent(runId)}`)).json()) as { run: { status: string; pause: Record<string, unknown> | null; forkedFrom: unknown } })
    .run;
}

// The shared server's runs list belongs to the specs that read the demo runs: leave no fork behind.
test.afterAll(async ({ request }) => {
  const page = (await (await request.get("/api/runs?forkOf=order-123&limit=500")).json()) as { runs: Array<{ runId: string }> };
  for (const fork of page.runs) expect([200, 404]).toContain((await request.delete(`/api/runs/${encodeURIComponent(fork.runId)}`)).status());
});

test("forking order-123 at its tool result with an edited result lands on the diff whose first divergence is that step", async ({ page, request }) => {
  await page.goto("/runs/order-123?at=3");
  await expect(page.getByRole("slider", { name: "Timeline" })).toHaveValue("3");
  await page.getByRole("button", { name: "Fork from here" }).click();
  const dialog = page.getByRole("dialog", { name: "Fork order-123 at step 3" });
  await expect(dialog).toBeVisible();
  const editor = dialog.getByLabel("Edited value (JSON)");
  await expect(editor).toHaveValue(/"charged": 500/);
  // Validated as you type: a broken value is refused before anything is sent.
  await editor.fill('{"charged": 450,');
  await expect(dialog.getByRole("alert")).toContainText("Not valid JSON");
  await expect(dialog.getByRole("button", { name: "Start fork" })).toBeDisabled();
  await editor.fill('{"charged": 450, "orderId": "123", "receipt": "rcpt-discount"}');
  await expect(dialog.getByRole("alert")).toBeHidden();
  await expect(dialog.getByLabel("Model")).toHaveValue("demo/v1");
  const plan = dialog.getByRole("list", { name: "Tools that may run live" });
  await expect(plan).toContainText("chargeCard");
  await expect(plan).toContainText("external");
  await expect(dialog.getByLabel("Allow external effects")).not.toBeChecked();
  await dialog.getByRole("button", { name: "Start fork" }).click();

  await page.waitForURL(/\/diff\?a=order-123&b=order-123(?:~|%7E)fork-\d+&at=1/);
  const newRunId = new URL(page.url()).searchParams.get("b") ?? "";
  const rows = page.getByTestId("diff-rows");
  await expect(rows.locator('[data-index="0"] .diff-status')).toHaveText("same (copied)");
  await expect(rows.locator('[data-index="1"] .diff-status')).toHaveText("edited");
  const diff = (await (await request.get(`/api/diff?a=order-123&b=${encodeURIComponent(newRunId)}`)).json()) as DiffBody;
  expect(diff.divergentAt).toBe(1);
  expect(diff.steps[1]?.detail.outputB).toEqual({ charged: 450, orderId: "123", receipt: "rcpt-discount" });
  expect(diff.steps[2]?.detail.textB).toBe("Charged $450.00 for order 123 (receipt rcpt-discount).");

  // Lineage: the fork's page says where it came from and draws copied and live parts; the source lists it.
  await page.goto(`/runs/${encodeURIComponent(newRunId)}`);
  await expect(page.getByTestId("forked-from")).toContainText("Forked from order-123 at step 3");
  await expect(page.getByTestId("forked-from").getByRole("link", { name: "order-123" })).toHaveAttribute("href", "/runs/order-123?at=3");
  const chart = page.getByTestId("flowchart");
  await expect(chart.locator('g.node[data-lineage="copied"]')).toHaveCount(1);
  await expect(chart.locator('g.node[data-lineage="edited"]')).toHaveCount(1);
  await expect(chart.locator('g.node[data-lineage="live"]')).toHaveCount(2);
  await page.goto("/runs/order-123");
  await expect(page.getByRole("navigation", { name: "Forks of this run" })).toContainText(newRunId);
  await page.goto("/runs?forkOf=order-123");
  await expect(page.getByRole("link", { name: newRunId })).toBeVisible();
  await expect(page.getByRole("link", { name: "order-123", exact: true })).toHaveCount(0);
});

test("a fork that changes the charge halts before chargeCard unless external effects are allowed", async ({ page, request }) => {
  await page.goto("/runs/order-123?at=1");
  await page.getByRole("button", { name: "Fork from here" }).click();
  const dialog = page.getByRole("dialog", { name: "Fork order-123 at step 1" });
  await dialog.getByLabel("What to change").selectOption("args");
  await dialog.getByLabel("Edited value (JSON)").fill('{"orderId": "123", "amount": 900}');
  await expect(dialog.getByRole("list", { name: "Tools that may run live" })).toContainText("the fork halts before it runs");
  await dialog.getByRole("button", { name: "Start fork" }).click();
  await page.waitForURL(/\/diff\?a=order-123&b=order-123(?:~|%7E)fork-\d+&at=0/);
  const newRunId = new URL(page.url()).searchParams.get("b") ?? "";
  await expect(page.getByTestId("diff-rows").locator('[data-index="0"] .diff-status')).toHaveText("edited");
  const forked = await run(request, newRunId);
  expect(forked.status).toBe("paused");
  expect(forked.pause).toMatchObject({ reason: "halt", halt: "fork_effect", toolName: "chargeCard" });
  const records = (await (await request.get(`/api/runs/${encodeURIComponent(newRunId)}/records`)).json()) as { records: Array<{ name: string }> };
  expect(records.records.map((record) => record.name)).not.toContain("turn:0:call:0:attempt");

  // The recovery board offers Allow, Give result and Fail; a given result finishes the fork without charging.
  await page.goto("/recovery");
  const row = page.locator(`tr[data-run="${newRunId}"]`);
  await expect(row).toContainText("fork halted before chargeCard");
  for (const name of ["Allow", "Give result", "Fail"]) await expect(row.getByRole("button", { name, exact: true })).toBeVisible();
  await row.getByRole("textbox", { name: "Result (JSON)" }).fill('{"charged": 900, "receipt": "given-by-hand"}');
  await row.getByRole("button", { name: "Give result", exact: true }).click();
  await expect(page.getByRole("status", { name: "Resume progress" })).toHaveText(`${newRunId} resumed and completed`);
  const done = await run(request, newRunId);
  expect(done.status).toBe("complete");
  const final = (await (await request.get(`/api/runs/${encodeURIComponent(newRunId)}/records`)).json()) as { records: Array<{ name: string; payload: unknown }> };
  expect(final.records.map((record) => record.name)).not.toContain("turn:0:call:0:attempt");
  expect(JSON.stringify(final.records.find((record) => record.name === "run:complete")?.payload)).toContain("given-by-hand");
});

test("the fork API: 202 with a job that ends done, and typed errors that write nothing", async ({ request }) => {
  const started = await request.post("/api/runs/order-123/forks", { data: { at: 3, edit: { kind: "error", error: "card declined" } } });
  expect(started.status()).toBe(202);
  const { jobId, newRunId } = (await started.json()) as { jobId: string; newRunId: string };
  expect(newRunId).toMatch(/^order-123~fork-\d+$/);
  await expect.poll(async () => ((await (await request.get(`/api/jobs/${jobId}`)).json()) as { status: string }).status, { timeout: 20_000 }).toBe("done");
  const job = (await (await request.get(`/api/jobs/${jobId}`)).json()) as { kind: string; newRunId: string; result: { status: string; landAt: number } };
  expect(job).toMatchObject({ kind: "fork", newRunId, result: { status: "complete", landAt: 1 } });
  expect((await run(request, newRunId)).forkedFrom).toEqual({ runId: "order-123", at: 3 });

  const before = ((await (await request.get("/api/runs?forkOf=order-123&limit=500")).json()) as { runs: unknown[] }).runs.length;
  const errors: Array<[unknown, number, string]> = [
    [{ at: 99 }, 400, "bad_fork"],
    [{ at: 1, edit: { kind: "result", result: 1 } }, 400, "bad_fork"],
    [{ at: 3, edit: { kind: "error", error: "x" }, model: "gpt-9" }, 422, "missing_model"],
    [{ at: "three" }, 400, "bad_input"],
  ];
  for (const [data, status, code] of errors) {
    const answer = await request.post("/api/runs/order-123/forks", { data });
    expect(answer.status(), JSON.stringify(data)).toBe(status);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe(code);
  }
  expect((await request.post("/api/runs/no-such-run/forks", { data: { at: 1 } })).status()).toBe(404);
  const after = ((await (await request.get("/api/runs?forkOf=order-123&limit=500")).json()) as { runs: unknown[] }).runs.length;
  expect(after).toBe(before);
});

test("the diff of order-123 and its demo/v2 replay finds the step that flips it, as a job, and links the diff at k", async ({ page }) => {
  await page.goto("/diff?a=order-123&b=order-123~v2");
  const bisect = page.getByRole("group", { name: "Bisect" });
  await expect(bisect.getByLabel("Scorer")).toHaveValue("same-decisions");
  await bisect.getByRole("button", { name: "Find the step that flips it" }).click();
  const progress = bisect.getByRole("status", { name: "Bisect progress" });
  await expect(progress).toContainText("k = 1: decision 1 of 2", { timeout: 30_000 });
  await bisect.getByRole("link", { name: "Open the diff at k" }).click();
  await page.waitForURL(/\/diff\?a=order-123&b=order-123(?:~|%7E)fork-\d+&at=\d+/);
  await expect(page.getByTestId("diff-rows").locator('[data-index="0"] .diff-status')).toHaveText("same (copied)");
});
