/**
 * Issue 14: a stock OpenTelemetry exporter's traces show up live. The AI SDK's own telemetry of a
 * generateText tool loop, exported by @opentelemetry/exporter-trace-otlp-proto to the built
 * inspector's /v1/traces, appears in the open runs list without a reload and opens as a run with
 * its flowchart; the token-protected server takes it only with the token.
 */
import { expect, test } from "@playwright/test";
import { E2E_TOKEN, TOKEN_PORT } from "../playwright.config";
import { tracedGenerateText } from "../tests/otel/clients";

test("an AI SDK app's traces, sent by the stock OTLP exporter, show up live and open as a run", async ({ page, baseURL }) => {
  await page.goto("/runs");
  await expect(page.getByText("live", { exact: true })).toBeVisible();
  await tracedGenerateText({ url: `${baseURL}/v1/traces`, exporter: "proto", runId: "otel-e2e" });
  const link = page.getByRole("link", { name: "otel-e2e", exact: true });
  await expect(link).toBeVisible();
  await expect(page.getByRole("row").filter({ has: link }).getByText("complete")).toBeVisible();
  await link.click();
  const chart = page.getByTestId("flowchart");
  for (const label of ["LLM", "tool: weather", "step: run:complete"]) {
    await expect(chart.locator("svg").getByText(label, { exact: true }).first()).toBeVisible();
  }
});

test("a token-protected inspector ingests only with the token", async ({ request }) => {
  const guarded = `http://127.0.0.1:${TOKEN_PORT}/v1/traces`;
  const refused = await request.post(guarded, { data: "{}", headers: { "content-type": "application/json" } });
  expect(refused.status()).toBe(401);
  await tracedGenerateText({ url: guarded, exporter: "json", runId: "otel-guarded", headers: { Authorization: `Bearer ${E2E_TOKEN}` } });
  const run = await request.get(`http://127.0.0.1:${TOKEN_PORT}/api/runs/otel-guarded`, { headers: { Authorization: `Bearer ${E2E_TOKEN}` } });
  expect(run.status()).toBe(200);
  expect(((await run.json()) as { run: { origin: string } }).run.origin).toBe("otel");
});
