/** Replays from the inspector: the dialog, the job, landing on the diff, and the errors a replay can meet. */
import { expect, test } from "@playwright/test";
import { E2E_TOKEN, TOKEN_PORT } from "../playwright.config";

interface DiffBody {
  divergentAt: number | null;
  steps: Array<{ kind: string; detail: Record<string, unknown> }>;
}

test("replaying order-123 under demo/v2 from the run page lands on the diff, which diverges at the chargeCard decision", async ({ page, request }, testInfo) => {
  await page.goto("/runs/order-123");
  await page.getByRole("button", { name: "Replay", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Replay order-123" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("A model from the registry").check();
  await dialog.getByLabel("Registry model").selectOption("demo/v2");
  // The memory-off explanation sits behind its "?" (a <details>): closed, then opened by a click.
  await expect(dialog.getByText("The system text is untouched")).toBeHidden();
  const help = dialog.getByTitle("About stripping memory context");
  await help.click();
  await expect(dialog.getByText("The system text is untouched")).toBeVisible();
  // A press elsewhere closes it again (an open body covers the buttons below it).
  await dialog.getByRole("heading", { name: "Replay order-123" }).click();
  await expect(dialog.getByText("The system text is untouched")).toBeHidden();
  // The docs' screenshot (docs/ only with BACKTRACK_UPDATE_SCREENSHOTS=1, as sessions.spec.ts explains).
  await dialog.screenshot({ path: testInfo.outputPath("replay.png") });
  if (process.env.BACKTRACK_UPDATE_SCREENSHOTS === "1") await dialog.screenshot({ path: "docs/replay.png" });
  await dialog.getByRole("button", { name: "Start replay" }).click();

  await page.waitForURL(/\/diff\?a=order-123&b=/);
  const url = new URL(page.url());
  expect(url.pathname).toBe("/diff");
  expect(url.searchParams.get("a")).toBe("order-123");
  const newRunId = url.searchParams.get("b") ?? "";
  expect(newRunId).toMatch(/^order-123~replay-\d+$/);

  const diff = (await (await request.get(`/api/diff?a=order-123&b=${encodeURIComponent(newRunId)}`)).json()) as DiffBody;
  expect(diff.divergentAt).toBe(0);
  expect(diff.steps[0]?.detail.toolCallsB).toEqual([expect.objectContaining({ toolName: "chargeCard", args: { orderId: "123", amount: 5000 } })]);
  const replayed = (await (await request.get(`/api/runs/${encodeURIComponent(newRunId)}`)).json()) as { run: { status: string } };
  expect(replayed.run.status).toBe("complete");
});

test("a model from the user's backtrack.config: the dialog offers it, and the replay under it lands on its diff", async ({ page, request }) => {
  await page.goto("/runs/order-123");
  await page.getByRole("button", { name: "Replay", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Replay order-123" });
  await dialog.getByLabel("A model from the registry").check();
  await dialog.getByLabel("Registry model").selectOption("acme/scripted");
  await dialog.getByRole("button", { name: "Start replay" }).click();

  await page.waitForURL(/\/diff\?a=order-123&b=/);
  const newRunId = new URL(page.url()).searchParams.get("b") ?? "";
  const diff = (await (await request.get(`/api/diff?a=order-123&b=${encodeURIComponent(newRunId)}`)).json()) as DiffBody;
  expect(diff.divergentAt).toBe(0);
  expect(diff.steps[0]?.detail.toolCallsB).toEqual([expect.objectContaining({ toolName: "chargeCard", args: { orderId: "123", amount: 50 } })]);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(newRunId);
});

test("the replay API: 202 with a job that ends done, and JSON errors for unknown runs, unknown models and bad bodies", async ({ request }) => {
  const started = await request.post("/api/runs/order-123/replays", { data: { mode: "recorded" } });
  expect(started.status()).toBe(202);
  const { jobId, newRunId } = (await started.json()) as { jobId: string; newRunId: string };
  expect(newRunId).toMatch(/^order-123~replay-\d+$/);
  await expect.poll(async () => ((await (await request.get(`/api/replays/${jobId}`)).json()) as { status: string }).status, { timeout: 20_000 }).toBe("done");
  const job = (await (await request.get(`/api/replays/${jobId}`)).json()) as Record<string, unknown>;
  expect(job).toMatchObject({ jobId, status: "done", newRunId });

  const unknownRun = await request.post("/api/runs/no-such-run/replays", { data: { mode: "recorded" } });
  expect(unknownRun.status()).toBe(404);
  expect(((await unknownRun.json()) as { error: { code: string } }).error.code).toBe("not_found");
  const unknownModel = await request.post("/api/runs/order-123/replays", { data: { mode: "model", model: "demo/v9" } });
  expect(unknownModel.status()).toBe(400);
  expect(((await unknownModel.json()) as { error: { message: string } }).error.message).toContain('unknown model "demo/v9"');
  const badBody = await request.post("/api/runs/order-123/replays", { data: { mode: "sometimes" } });
  expect(badBody.status()).toBe(400);
  expect(((await badBody.json()) as { error: { code: string } }).error.code).toBe("bad_input");
  const mixed = await request.post("/api/runs/order-123/replays", { data: { mode: "recorded", model: "demo/v2" } });
  expect(mixed.status()).toBe(400);
  const unknownJob = await request.get("/api/replays/job-none");
  expect(unknownJob.status()).toBe(404);
});

test("a memory-off replay of a run without a memory record shows why it cannot be stripped", async ({ page }) => {
  await page.goto("/runs/order-123");
  await page.getByRole("button", { name: "Replay", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Strip memory context").check();
  await dialog.getByRole("button", { name: "Start replay" }).click();
  await expect(dialog.getByRole("alert")).toContainText("no usable :memctx provenance record");
});

test.describe("on a database of their own", () => {
  // The failed runs these leave would show in the main server's lists (runs.spec.ts filters them):
  // they run on the token-protected server, signed in with the bearer token on every request.
  test.use({ baseURL: `http://127.0.0.1:${TOKEN_PORT}`, extraHTTPHeaders: { authorization: `Bearer ${E2E_TOKEN}` } });

  test("a replay that cannot run shows its error in the dialog: a run without recorded input", async ({ page, request }) => {
    // An imported run whose journal starts after run:start: nothing to run again.
    const lines = [
      {
        runId: "headless-1",
        seq: 0,
        name: "turn:0",
        kind: "model",
        payload: { message: { role: "assistant", content: [{ type: "text", text: "hello" }] } },
        createdAt: "2026-11-29T10:00:00.000Z",
      },
    ];
    const imported = await request.post("/api/import", { data: lines.map((line) => JSON.stringify(line)).join("\n"), headers: { "content-type": "application/x-ndjson" } });
    expect(imported.status()).toBe(201);
    expect(await imported.json()).toEqual({ imported: 1, runs: ["headless-1"] });

    const refused = await request.post("/api/runs/headless-1/replays", { data: { mode: "recorded" } });
    expect(refused.status()).toBe(422);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("no_recorded_input");

    await page.goto("/runs/headless-1");
    await page.getByRole("button", { name: "Replay", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Start replay" }).click();
    await expect(dialog.getByRole("alert")).toContainText('run "headless-1" has no recorded input');
    await expect(page).toHaveURL(/\/runs\/headless-1/);
  });

  test("a replay job that fails shows the job's error in the dialog", async ({ page, request }) => {
    // Input recorded, but no model output: replaying the recorded outputs has nothing to re-emit at turn 0.
    const header = {
      runId: "outputless-1",
      seq: 0,
      name: "run:start",
      kind: "header",
      payload: { input: "Say hello.", agent: "ghost", model: "demo/v1", tools: [] },
      createdAt: "2026-11-29T10:00:00.000Z",
    };
    expect((await request.post("/api/import", { data: JSON.stringify(header) })).status()).toBe(201);

    await page.goto("/runs/outputless-1");
    await page.getByRole("button", { name: "Replay", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Start replay" }).click();
    await expect(dialog.getByRole("alert")).toContainText("The replay failed:");
    await expect(dialog.getByRole("alert")).toContainText('the replay of "outputless-1"');
    await expect(page).toHaveURL(/\/runs\/outputless-1/);
  });
});
