/**
 * Link previews: what a chat tool reads when a link is shared. An unfurling bot fetches the HTML
 * (bots get the metadata in <head>, unstreamed) and reads the Open Graph and Twitter tags; the text
 * is computed from the page's own projections on the demo data.
 */
import { expect, test, type APIRequestContext } from "@playwright/test";
import { E2E_TOKEN, TOKEN_PORT } from "../playwright.config";

const BOT = { "user-agent": "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)" };

/** The <head>'s meta tags, by property or name. */
async function previewTags(request: APIRequestContext, url: string): Promise<Map<string, string>> {
  const response = await request.get(url, { headers: BOT, maxRedirects: 0 });
  expect(response.status()).toBe(200);
  const html = await response.text();
  const head = html.slice(0, html.indexOf("</head>"));
  const tags = new Map<string, string>();
  for (const [, attributes] of head.matchAll(/<meta\s([^>]*)>/g)) {
    const key = /(?:property|name)="([^"]+)"/.exec(attributes ?? "")?.[1];
    const content = /content="([^"]*)"/.exec(attributes ?? "")?.[1];
    if (key && content !== undefined)
      tags.set(key, content.replaceAll("&amp;", "&").replaceAll("&quot;", '"').replaceAll("&#x27;", "'").replaceAll("&gt;", ">").replaceAll("&lt;", "<"));
  }
  return tags;
}

test("a shared diff link unfurls with its first divergence: the chargeCard amount, 500 → 5000", async ({ request, baseURL }) => {
  const tags = await previewTags(request, "/diff?a=order-123&b=order-123~v2");
  const sentence = "order-123 vs order-123~v2: first divergence at row 0, chargeCard amount 500 → 5000. 0 same, 3 changed.";
  expect(tags.get("og:title")).toBe("order-123 vs order-123~v2 · Backtrack diff");
  expect(tags.get("og:description")).toBe(sentence);
  expect(tags.get("twitter:card")).toBe("summary_large_image");
  expect(tags.get("twitter:title")).toBe("order-123 vs order-123~v2 · Backtrack diff");
  expect(tags.get("twitter:description")).toBe(sentence);
  expect(tags.get("description")).toBe(sentence);
  // The card image is absolute (a chat tool fetches it from elsewhere) and served.
  expect(tags.get("og:image")).toBe(`${baseURL}/og.png`);
  const image = await request.get("/og.png");
  expect(image.status()).toBe(200);
  expect(image.headers()["content-type"]).toBe("image/png");
});

test("a shared run link unfurls with its status and counts", async ({ request }) => {
  const { run } = (await (await request.get("/api/runs/order-123")).json()) as {
    run: { recordCount: number; modelTurns: number; toolCalls: number; inputTokens: number; outputTokens: number };
  };
  const tags = await previewTags(request, "/runs/order-123");
  expect(tags.get("og:title")).toBe("order-123 · complete · Backtrack");
  expect(tags.get("og:description")).toBe(
    `Run order-123 (agent billing): complete, ${run.recordCount} records, ${run.modelTurns} model turns, ${run.toolCalls} tool call${run.toolCalls === 1 ? "" : "s"}, ${run.inputTokens + run.outputTokens} tokens.`,
  );
  // A paused run says why it waits.
  const paused = await previewTags(request, "/runs/refund-900");
  expect(paused.get("og:title")).toBe("refund-900 · paused (approval) · Backtrack");
});

test("the recovery board, a session and the lists unfurl with their own text", async ({ request }) => {
  // The demo's four waiting runs, each counted by what it waits for (in the board's run-id order).
  const { runs: unfinished } = (await (await request.get("/api/recovery")).json()) as { runs: unknown[] };
  const recovery = await previewTags(request, "/recovery");
  const description = recovery.get("og:description") ?? "";
  expect(description.startsWith(`${unfinished.length} unfinished runs: `)).toBe(true);
  for (const part of ["1 waiting for an answer", "1 asleep", "1 halted on an unknown outcome", "1 waiting for approval"]) expect(description).toContain(part);
  const session = await previewTags(request, "/sessions/ticket-booking");
  expect(session.get("og:description")).toMatch(/^Session ticket-booking of app \S+, user \S+: \d+ events, state .*cart/);
  const sessions = await previewTags(request, "/sessions");
  expect(sessions.get("og:title")).toBe("Sessions · Backtrack");
  const runs = await previewTags(request, "/runs");
  expect(runs.get("og:title")).toBe("Runs · Backtrack");
});

test("the tags are in the page a browser gets too, with the icon", async ({ page, request }) => {
  await page.goto("/diff?a=order-123&b=order-123~v2");
  await expect(page.locator('meta[property="og:description"]')).toHaveAttribute("content", /first divergence at row 0, chargeCard amount 500 → 5000/);
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", /\/icon\.svg/);
  const icon = await request.get("/icon.svg");
  expect(icon.status()).toBe(200);
  expect(await icon.text()).toContain("<svg");
});

test("behind a token, a signed-out bot sees the sign-in page's generic card, never the run's text", async ({ playwright }) => {
  const outside = await playwright.request.newContext({ baseURL: `http://127.0.0.1:${TOKEN_PORT}` });
  try {
    const response = await outside.get("/diff?a=order-123&b=order-123~v2", { headers: BOT });
    const html = await response.text();
    expect(html).toContain("Sign in");
    expect(html).not.toContain("chargeCard");
    expect(html).not.toContain(E2E_TOKEN);
    // The icon and the card image hold nothing of the journal: served without signing in.
    expect((await outside.get("/og.png", { maxRedirects: 0 })).status()).toBe(200);
    expect((await outside.get("/icon.svg", { maxRedirects: 0 })).status()).toBe(200);
  } finally {
    await outside.dispose();
  }
});
