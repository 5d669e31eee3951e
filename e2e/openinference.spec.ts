/**
 * Issue 43, "done when": a new user's OpenAI-client app instrumented with OpenInference (the real
 * `openai` client under `@arizeai/openinference-instrumentation-openai`, the agent, its tool and a
 * retrieval traced with `@arizeai/openinference-core`), exported by the stock OTLP exporter to the
 * built inspector's /v1/traces, shows up live in the runs list and opens as a run with its model
 * turns, tool call, messages, usage and the retrieved documents, in Chromium.
 */
import { expect, test } from "@playwright/test";
import { startFakeOpenAI, tracedOpenAIAgent } from "../tests/otel/openinference-clients";

test("an OpenInference-instrumented OpenAI app's run shows its turns, tool call, messages and usage", async ({ page, baseURL, request }) => {
  const agentRuns = async () => ((await (await request.get("/api/runs?agent=billing-agent")).json()) as { runs: Array<{ runId: string; origin: string }> }).runs;
  // A retried test has sent the agent before: the run is the one that was not there.
  const before = new Set((await agentRuns()).map((run) => run.runId));
  await page.goto("/runs");
  await expect(page.getByText("live", { exact: true })).toBeVisible();
  const openai = await startFakeOpenAI();
  try {
    const text = await tracedOpenAIAgent({ url: `${baseURL}/v1/traces`, exporter: "proto", openai, question: "Charge order-123 for the desk.", sessionId: "session-e2e" });
    expect(text).toBe("Charged $500 to order-123.");
  } finally {
    await openai.close();
  }
  const added = (await agentRuns()).filter((run) => !before.has(run.runId));
  expect(added).toHaveLength(1);
  const { runId, origin } = added[0]!;
  expect(origin).toBe("otel");

  // The list shows it without a reload, complete.
  const link = page.getByRole("link", { name: runId, exact: true });
  await expect(link).toBeVisible();
  await expect(page.getByRole("row").filter({ has: link }).getByText("complete")).toBeVisible();
  await link.click();

  const facts = page.locator(".run-facts");
  await expect(facts).toContainText("agent billing-agent");
  await expect(facts).toContainText("2 model turns");
  await expect(facts).toContainText("50 tokens");
  const chart = page.getByTestId("flowchart");
  await expect(chart.locator("svg")).toBeVisible();
  const labels = await chart.locator("g.node").evaluateAll((nodes) => nodes.map((node) => (node.textContent ?? "").trim()));
  expect(labels).toEqual(expect.arrayContaining(["LLM", "tool: chargeCard"]));

  // Step 0, the run's input; step 1, the retrieval with its document; step 2, the first model turn.
  const detail = page.getByTestId("detail");
  await page.goto(`/runs/${encodeURIComponent(runId)}?at=0`);
  await expect(detail).toContainText("Charge order-123 for the desk.");
  await expect(detail).toContainText("Bill the customer.");
  await page.keyboard.press("ArrowRight");
  await expect(detail.getByRole("heading", { name: "Signal: retrieval" })).toBeVisible();
  await expect(detail).toContainText("Order 123: one desk, $500.");
  await page.keyboard.press("ArrowRight");
  await expect(detail.getByRole("heading", { name: "Model turn" })).toBeVisible();
  await expect(detail).toContainText("gpt-4o-mini");
  await expect(detail).toContainText("20 in, 5 out");
  await expect(detail.locator(".tool-call")).toContainText("chargeCard");

  // The last model turn: its answer, and the conversation so far holds the tool's result.
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(detail.getByRole("heading", { name: "Model turn" })).toBeVisible();
  await expect(detail).toContainText("Charged $500 to order-123.");
  const state = page.getByTestId("state");
  await expect(state).toContainText("Model turns: 2");
  await expect(state).toContainText("receipt");
});
