import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { E2E_DATABASE } from "../playwright.config";

/**
 * A new user's AI SDK app (examples/ai-sdk-app.mjs, plain Node on the built library) writes into
 * the running inspector's embedded database, through the server's process; its run page shows the
 * flowchart of the tool loop and the timeline steps through it.
 */
function runExample(runId: string): Promise<string> {
  const child = spawn(process.execPath, ["examples/ai-sdk-app.mjs", runId], { env: { ...process.env, DATABASE_URL: E2E_DATABASE } });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => child.on("exit", (code) => (code === 0 ? resolve(output) : reject(new Error(`the example exited ${code}: ${output}`)))));
}

test("an AI SDK app's run shows in the inspector with its flowchart and timeline", async ({ page }) => {
  test.setTimeout(180_000);
  // npm test builds the library first (test:lib); a lone e2e run builds it here.
  if (!existsSync("dist/index.js")) execFileSync(process.execPath, ["scripts/build-lib.mjs"], { stdio: "inherit" });
  const output = await runExample("ai-sdk-e2e");
  expect(output).toContain("ai-sdk-e2e: It is sunny in Lisbon, 24°C.");
  await page.goto("/runs/ai-sdk-e2e");
  const flowchart = page.getByTestId("flowchart");
  await expect(flowchart.locator("svg")).toBeVisible();
  const labels = await flowchart.locator("g.node").evaluateAll((nodes) => nodes.map((node) => (node.textContent ?? "").trim()));
  expect(labels).toEqual(["user", "LLM", "tool: weather", "LLM", "step: run:complete", "done"]);
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("detail").getByRole("heading", { name: "Tool call: weather" })).toBeVisible();
  await expect(page.getByTestId("state")).toContainText("Model turns: 1");
});
