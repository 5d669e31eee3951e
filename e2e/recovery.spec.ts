/** The recovery board in Chromium: what each demo run waits for, approving, answering, and "Recover now". */
import { expect, test, type Page } from "@playwright/test";

const row = (page: Page, runId: string) => page.locator(`tr[data-run="${runId}"]`);

test("the board lists every unfinished demo run with why it waits and its lease", async ({ page }, testInfo) => {
  await page.goto("/runs");
  await expect(page.getByRole("link", { name: "order-123", exact: true })).toBeVisible();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Recovery" }).click();
  await expect(page).toHaveURL(/\/recovery$/);
  await expect(page.getByRole("heading", { name: "Recovery", level: 1 })).toBeVisible();
  await expect(row(page, "refund-900")).toContainText("pending approval: issueRefund");
  await expect(row(page, "refund-900")).toContainText(`"amount":900`);
  await expect(row(page, "concierge-5")).toContainText("interrupted:");
  await expect(row(page, "follow-up-3")).toContainText("sleeping until");
  await expect(row(page, "payout-9")).toContainText("halted on an unknown outcome");
  await expect(row(page, "refund-900").getByRole("button", { name: "Approve" })).toBeVisible();
  await expect(row(page, "concierge-5").getByRole("textbox", { name: "Answer" })).toBeVisible();
  // The docs' screenshot (docs/ only with BACKTRACK_UPDATE_SCREENSHOTS=1: the wake time differs on every run).
  await page.screenshot({ path: testInfo.outputPath("recovery.png"), fullPage: true });
  if (process.env.BACKTRACK_UPDATE_SCREENSHOTS === "1") await page.screenshot({ path: "docs/recovery.png", fullPage: true });
});

test("approving the pending refund from the board completes the run, journaled with who decided", async ({ page, request }) => {
  await page.goto("/recovery");
  await page.getByLabel("Decided by").fill("e2e-reviewer");
  await row(page, "refund-900").getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("status", { name: "Last action" })).toHaveText("Recorded: approved issueRefund in refund-900 (by e2e-reviewer).");
  await expect(page.getByRole("status", { name: "Resume progress" })).toHaveText("refund-900 resumed and completed");
  await expect(row(page, "refund-900")).toHaveCount(0);
  const summary = (await (await request.get("/api/runs/refund-900")).json()) as { run: { status: string } };
  expect(summary.run.status).toBe("complete");
  const records = (await (await request.get("/api/runs/refund-900/records?from=0&limit=100")).json()) as {
    records: Array<{ kind: string; payload: { by?: string; approved?: boolean } }>;
  };
  expect(records.records.find((record) => record.kind === "approval")?.payload).toMatchObject({ by: "e2e-reviewer", approved: true });
  await page.goto("/runs/refund-900");
  await expect(page.locator(".status").first()).toContainText(/complete/i);
});

test("answering the interrupted run resumes it", async ({ page }) => {
  await page.goto("/recovery");
  const concierge = row(page, "concierge-5");
  await concierge.getByRole("textbox", { name: "Answer" }).fill("Saturday");
  await concierge.getByRole("button", { name: "Send answer" }).click();
  await expect(page.getByRole("status", { name: "Last action" })).toHaveText('Recorded: the answer "Saturday" to concierge-5 (by inspector).');
  await expect(page.getByRole("status", { name: "Resume progress" })).toHaveText(/concierge-5 resumed and (completed|paused again)/);
  await expect(row(page, "concierge-5").getByRole("textbox", { name: "Answer" })).toHaveCount(0);
});

test("a decision for a run that does not wait for one is refused with a JSON error", async ({ request }) => {
  const response = await request.post("/api/runs/order-123/decisions", { data: { decision: "approve" } });
  expect(response.status()).toBe(409);
  expect(((await response.json()) as { error: { code: string } }).error.code).toBe("not_waiting");
  const bad = await request.post("/api/runs/order-123/answers", { data: { text: "" } });
  expect(bad.status()).toBe(400);
});

test("Recover now runs recovery on the server and shows its summary", async ({ page, request }) => {
  await page.goto("/recovery");
  await page.getByRole("button", { name: "Recover now" }).click();
  await expect(page.getByRole("status", { name: "Recovery progress" })).toContainText(/recovered \d+ runs?: \d+ driven to completion, \d+ paused, \d+ failed/, { timeout: 30_000 });
  // The sleeping follow-up and the halted payout pause again: they stay on the board.
  await expect(row(page, "follow-up-3")).toBeVisible();
  await expect(row(page, "payout-9")).toBeVisible();
  const list = (await (await request.get("/api/recovery")).json()) as { runs: Array<{ runId: string; waiting: { kind: string } }> };
  expect(list.runs.find((run) => run.runId === "payout-9")?.waiting.kind).toBe("halt");
});

test("resolving the halted payout from the board: the person's result becomes the call's, and the run completes", async ({ page, request }) => {
  await page.goto("/recovery");
  await page.getByLabel("Decided by").fill("e2e-ops");
  const payout = row(page, "payout-9");
  await payout.getByRole("textbox", { name: "Result (JSON)" }).fill("not json");
  await payout.getByRole("button", { name: "It succeeded" }).click();
  await expect(page.getByRole("alert", { name: "Last action" })).toContainText("The result must be JSON");
  await payout.getByRole("textbox", { name: "Result (JSON)" }).fill('{"sent": 250, "receipt": "bank-77"}');
  await payout.getByRole("button", { name: "It succeeded" }).click();
  await expect(page.getByRole("status", { name: "Last action" })).toHaveText("Recorded: it succeeded, for the call payout-9 halted on (by e2e-ops).");
  await expect(page.getByRole("status", { name: "Resume progress" })).toHaveText("payout-9 resumed and completed");
  await expect(row(page, "payout-9")).toHaveCount(0);
  const result = (await (await request.get("/api/runs/payout-9/records?from=0&limit=50")).json()) as { records: Array<{ name: string; payload: Record<string, unknown> }> };
  expect(result.records.find((record) => record.name === "turn:0:call:0:resolution:1")?.payload).toMatchObject({ outcome: "succeeded", by: "e2e-ops" });
  expect(result.records.find((record) => record.name === "turn:0:call:0:result")?.payload).toMatchObject({ result: { sent: 250, receipt: "bank-77" }, isError: false });
  const again = await request.post("/api/runs/payout-9/resolutions", { data: { outcome: "retry" } });
  expect(again.status()).toBe(409);
});
