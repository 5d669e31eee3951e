/** Hostile input against the built app (issue 12's hardening items), over real HTTP and in Chromium. */
import { expect, test, type APIResponse } from "@playwright/test";
import { READ_ONLY_PORT } from "../playwright.config";
import { generatedText } from "../tests/hostile/jsonl-files";

test.describe("item 11: NUL, bad encoding, huge numbers", () => {
  /** 400 or 404 with a typed code, and nothing of the SQL, its parameters or the database's own words. */
  async function expectRefused(response: APIResponse, path: string) {
    expect([400, 404], path).toContain(response.status());
    const text = await response.text();
    const body = JSON.parse(text) as { error: { code: string; message: string } };
    expect(["bad_input", "not_found"], path).toContain(body.error.code);
    expect(text, path).not.toMatch(/select|insert|\$\d|params|\\u0000|out of range for type|invalid byte sequence/i);
  }

  test("the API answers NUL, undecodable paths and huge numbers with 400 or 404 and a typed code", async ({ request }) => {
    const paths = [
      "/api/runs/a%00b",
      "/api/runs/%FF",
      "/api/runs/%FF/records",
      "/api/runs?search=%00",
      "/api/runs?agent=%00",
      "/api/runs?limit=99999999999999999999",
      "/api/runs/a%00b/records",
      "/api/runs/a%00b/state",
      "/api/runs/a%00b/outline",
      "/api/runs/a%00b/mermaid",
      "/api/runs/a%00b/stream",
      "/api/runs/order-123/records?from=99999999999",
      "/api/runs/order-123/records?limit=9007199254740993",
      "/api/runs/order-123/state?at=99999999999",
      "/api/runs/order-123/outline?from=99999999999",
      "/api/runs/order-123/mermaid?at=2147483648",
      "/api/diff?a=a%00b&b=order-123",
      "/api/diff/entries?a=order-123&b=order-123~v2&from=99999999999",
      "/api/sessions/a%00b",
      "/api/sessions/%FF",
      "/api/sessions/a%00b/rebuild",
      "/api/jobs/a%00b",
      "/api/jobs/%FF",
      "/api/replays/a%00b",
      "/api/recover/a%00b",
      "/api/agents?%00=1",
    ];
    for (const path of paths) await expectRefused(await request.get(path), path);
    await expectRefused(await request.post("/api/runs/a%00b/replays", { data: { mode: "recorded" } }), "POST replays");
    await expectRefused(await request.post("/api/runs/a%00b/decisions", { data: { decision: "approve" } }), "POST decisions");
    await expectRefused(await request.post("/api/runs/order-123/answers", { data: { text: "a\u0000b" } }), "POST answers with NUL");
  });

  test("the pages answer the same input with 404 or 400, never a server error", async ({ page }) => {
    for (const [path, status, text] of [
      ["/runs/a%00b", 404, "No such run"],
      ["/runs/%FF", 400, "Bad request"],
      ["/runs?q=%00", 404, "Page not found"],
      ["/runs?agent=a%00", 404, "Page not found"],
      ["/sessions/a%00b", 404, "No such session"],
      ["/sessions/%FF", 400, "Bad request"],
    ] as const) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(status);
      await expect(page.locator("body"), path).toContainText(new RegExp(text, "i"));
      await expect(page.locator("body"), path).not.toContainText(/select|params|invalid byte sequence/i);
    }
    // The diff page drops an id no run could have, and offers its picker.
    const diff = await page.goto("/diff?a=a%00b&b=order-123");
    expect(diff?.status()).toBe(200);
    await expect(page.getByRole("button", { name: /compare/i })).toBeVisible();
    // A step past every integer is clamped to the run's last step, as any step past its end.
    const step = await page.goto("/runs/order-123?at=99999999999");
    expect(step?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("order-123");
    // The ordinary search still works.
    const search = await page.goto("/runs?search=%00");
    expect(search?.status()).toBe(200);
  });
});

const MiB = 1024 * 1024;

function jsonl(lines: object[]): string {
  return lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
}

test.describe("items 2, 3: imports and delete", () => {
  test("a 15 MiB import is imported whole (Next's proxy no longer cuts it at 10 MB)", async ({ request }) => {
    const text = generatedText({ prefix: "hostile-15mib", runs: 600, recordsPerRun: 10, payloadChars: 3_400, complete: true });
    expect(Buffer.byteLength(text)).toBeGreaterThan(15 * MiB);
    const response = await request.post("/api/import", { data: Buffer.from(text), headers: { "content-type": "application/x-ndjson" }, timeout: 120_000 });
    expect(response.status()).toBe(201);
    const body = (await response.json()) as { imported: number; runs: string[] };
    expect(body.imported).toBe(6_000);
    expect(body.runs).toHaveLength(600);
    const last = (await (await request.get("/api/runs/hostile-15mib-599")).json()) as { run: { recordCount: number; origin: string } };
    expect(last.run).toMatchObject({ recordCount: 10, origin: "import" });
  });

  test("an import over 64 MiB gets 413 import_too_large naming the limit, and nothing is stored", async ({ request }) => {
    const line = JSON.stringify({ runId: "hostile-huge-0", seq: 0, name: "run:start", kind: "header", payload: { agent: "auditor", pad: "x".repeat(1_000) } });
    const body = Buffer.from(`${line}\n`.repeat(Math.ceil((65 * MiB) / (line.length + 1))));
    const response = await request.post("/api/import", { data: body, headers: { "content-type": "application/x-ndjson" }, timeout: 120_000 });
    expect(response.status()).toBe(413);
    const error = ((await response.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("import_too_large");
    expect(error.message).toContain("64 MiB");
    expect((await request.get("/api/runs/hostile-huge-0")).status()).toBe(404);
  });

  test("of two concurrent imports of one run id, one gets 201 and the other 409 run_exists; the run is not mixed", async ({ request }) => {
    const first = generatedText({ prefix: "hostile-race", runs: 1, recordsPerRun: 600, payloadChars: 10 });
    const second = generatedText({ prefix: "hostile-race", runs: 1, recordsPerRun: 599, payloadChars: 20 });
    const answers = await Promise.all([first, second].map((text) => request.post("/api/import", { data: Buffer.from(text), headers: { "content-type": "application/x-ndjson" } })));
    expect(answers.map((answer) => answer.status()).sort()).toEqual([201, 409]);
    const loser = answers.find((answer) => answer.status() === 409);
    expect(((await loser?.json()) as { error: { code: string } }).error.code).toBe("run_exists");
    const run = ((await (await request.get("/api/runs/hostile-race-0")).json()) as { run: { recordCount: number } }).run;
    expect(run.recordCount).toBe(answers[0]?.status() === 201 ? 600 : 599);
  });

  test("DELETE /api/runs/{id} removes the run and its sub-agent runs and says so; a read-only server refuses it", async ({ request }) => {
    const header = (runId: string, parentRunId?: string) => ({ runId, seq: 0, name: "run:start", kind: "header", payload: { agent: "auditor", model: "demo/v1", input: "x", tools: [], ...(parentRunId ? { parentRunId } : {}) } });
    const text = jsonl([header("hostile-doomed"), { runId: "hostile-doomed", seq: 1, name: "step", kind: "value", payload: 1 }, header("hostile-doomed.sub", "hostile-doomed")]);
    expect((await request.post("/api/import", { data: Buffer.from(text) })).status()).toBe(201);

    const refused = await request.delete(`http://127.0.0.1:${READ_ONLY_PORT}/api/runs/order-123`);
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("read_only");

    const response = await request.delete("/api/runs/hostile-doomed");
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ deleted: { runs: ["hostile-doomed", "hostile-doomed.sub"], records: 3, leases: 0 } });
    expect((await request.get("/api/runs/hostile-doomed")).status()).toBe(404);
    expect((await request.get("/api/runs/hostile-doomed.sub")).status()).toBe(404);
    const again = await request.delete("/api/runs/hostile-doomed");
    expect(again.status()).toBe(404);
  });
});

test.describe("items 2, 3: imports and delete — imported runs on the recovery board (item 13)", () => {
  test("the board leaves imported unfinished runs out by default and shows them apart, badged, when asked", async ({ page, request }) => {
    const text = generatedText({ prefix: "hostile-imported", runs: 2, recordsPerRun: 1 });
    expect((await request.post("/api/import", { data: Buffer.from(text) })).status()).toBe(201);
    const board = (await (await request.get("/api/recovery")).json()) as { runs: Array<{ runId: string }>; hiddenImported: number };
    expect(board.runs.map((run) => run.runId)).not.toContain("hostile-imported-0");
    expect(board.hiddenImported).toBeGreaterThanOrEqual(2);

    await page.goto("/recovery");
    const unfinished = page.getByRole("table", { name: "Unfinished runs" });
    await expect(unfinished).toBeVisible();
    await expect(unfinished.locator('[data-run="hostile-imported-0"]')).toHaveCount(0);
    await page.getByRole("link", { name: "Show them" }).click();
    await expect(page).toHaveURL(/\/recovery\?imported=1$/);
    const imported = page.getByRole("table", { name: "Imported runs" });
    const row = imported.locator('[data-run="hostile-imported-0"]');
    await expect(row).toBeVisible();
    await expect(row.getByText("imported", { exact: true })).toBeVisible();
    await expect(row.getByText("not driven")).toBeVisible();
    await expect(unfinished.locator('[data-run="hostile-imported-0"]')).toHaveCount(0);
  });
});
