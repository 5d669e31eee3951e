/**
 * Renders public/og.png, the link-preview card every page shares (1200×630), from
 * scripts/og-card.html in Chromium: `node scripts/og-card.mjs`. Rerun it after editing the card.
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "@playwright/test";

const card = fileURLToPath(new URL("./og-card.html", import.meta.url));
const out = fileURLToPath(new URL("../public/og.png", import.meta.url));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
  await page.goto(pathToFileURL(card).href);
  await page.screenshot({ path: out });
} finally {
  await browser.close();
}
