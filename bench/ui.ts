/**
 * The inspector in real Chromium (issue "Inspector I"): `npm run bench:ui [-- --server] [-- --build]`.
 * Builds the app if there is no build, writes a 100-, a 20,000- and a 100,000-record run into a
 * fresh embedded folder (or, with --server, a fresh database on the PostgreSQL server), starts
 * `next start` on it and drives Debian's Chromium:
 * - runPage*FirstContentMs: navigation start to the run's detail panel showing the record at the
 *   cursor (server-rendered), read from the page's own clock; "Cold" is the first visit after the
 *   server started (it reads the whole run once), the plain figure the median of later visits;
 * - runPage*ChartMs: navigation start to the flowchart drawn (Mermaid, in the browser);
 * - scrubStep*: a real → key press (its event time) to the frame painted with the next record
 *   in the detail panel, the slider and the highlighted node, over SCRUB_PRESSES presses;
 * - diffPage20k*: the diff page (/diff?a=&b=) of two 20,000-record runs that part at model turn
 *   DIFF_DIVERGE_TURN: first content is the selected row's detail (the first divergence, rendered
 *   by the server), "Chart" both runs' flowcharts drawn.
 * - aggregatedChart100kMs: navigation start to the aggregated chart of the 100,000-record run drawn
 *   (`?view=aggregated`; the run's shape, folded by the server from its cached outline); the run
 *   pages above are measured with `?view=expanded`, as before the aggregated view existed.
 * - waterfall100kFirstPaintMs: navigation start to the Waterfall tab's first bars drawn on the
 *   100,000-record run (`?tab=waterfall`, cursor mid-run), against waterfall100FirstPaintMs on the
 *   100-record run; waterfallScrollFrame*: the time between painted frames while the waterfall's
 *   rows are scrolled by WATERFALL_SCROLL_PX a frame, against idleFrameMs (frames with no scrolling).
 * `-- --only diff` writes only the two 20,000-record runs and measures only the diff page;
 * `-- --only aggregated` writes only the 100,000-record run and measures only its aggregated chart;
 * `-- --only waterfall` writes the 100- and 100,000-record runs and measures only the waterfall.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "@playwright/test";
import { openStore } from "../lib/store/index";
import { writeBigRun } from "./big-runs";
import { median, round, time, withServerDatabases, type Benchmark, type BenchContext } from "./harness";

const PORT = Number(process.env.BENCH_UI_PORT ?? 3219);
const SCRUB_PRESSES = 40;
const SCRUB_GAP_MS = 120;
const WARM_VISITS = 3;
/** The diff benchmark's second run parts from the first at this model turn (of about 4,000). */
const DIFF_DIVERGE_TURN = 2_000;
const WATERFALL_SCROLL_FRAMES = 120;
const WATERFALL_SCROLL_PX = 240;
const NEXT_BIN = join("node_modules", "next", "dist", "bin", "next");
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Records, from the page's own clock, when the detail panel first shows a loaded record and when the chart is drawn. */
export const PAGE_PROBE = `
(() => {
  const marks = (window.__marks = {});
  const keys = (window.__keys = []);
  const seen = () => {
    const detail = document.querySelector('[data-testid="detail"][data-loaded="true"], [data-testid="diff-detail"][data-loaded="true"]');
    if (detail && marks.content === undefined) marks.content = performance.now();
    // Every chart drawn: one on a run page, both runs' on the diff page.
    const expected = document.querySelector('[data-testid="diff-charts"]') ? 2 : 1;
    const drawn = document.querySelectorAll('[data-testid="flowchart"][data-drawing="false"] svg').length;
    if (drawn >= expected && marks.chart === undefined) marks.chart = performance.now();
    if (document.querySelector('[data-testid="waterfall"][data-drawn="true"]') && marks.waterfall === undefined) marks.waterfall = performance.now();
  };
  new MutationObserver(seen).observe(document, { subtree: true, childList: true, attributes: true });
  // A → press: wait for the frame that shows the next record, then for it to be painted.
  addEventListener("keydown", (event) => {
    if (event.key !== "ArrowRight") return;
    const started = event.timeStamp;
    const before = Number(document.querySelector('[data-testid="detail"]')?.getAttribute("data-seq"));
    const check = () => {
      const detail = document.querySelector('[data-testid="detail"]');
      const slider = document.querySelector('input[aria-label="Timeline"]');
      if (detail?.getAttribute("data-seq") === String(before + 1) && detail.getAttribute("data-loaded") === "true" && slider?.value === String(before + 1)) {
        requestAnimationFrame(() => setTimeout(() => keys.push(performance.now() - started), 0));
      } else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  }, true);
})();`;

interface Marks {
  content?: number;
  chart?: number;
  waterfall?: number;
}

export async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the inspector exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not up yet.
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`the inspector did not answer ${url} within ${timeoutMs} ms`);
}

async function openRun(browser: Browser, url: string): Promise<{ page: Page; marks: Marks }> {
  const context = await browser.newContext({ viewport: { width: 1500, height: 1000 } });
  const page = await context.newPage();
  await page.addInitScript(PAGE_PROBE);
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { __marks: Marks }).__marks.content !== undefined, undefined, { timeout: 60_000 });
  await page.waitForFunction(() => (window as unknown as { __marks: Marks }).__marks.chart !== undefined, undefined, { timeout: 120_000 });
  const marks = await page.evaluate(() => (window as unknown as { __marks: Marks }).__marks);
  return { page, marks };
}

async function visits(browser: Browser, url: string): Promise<{ coldContent: number; coldChart: number; content: number; chart: number }> {
  const cold = await openRun(browser, url);
  await cold.page.context().close();
  const contents: number[] = [];
  const charts: number[] = [];
  for (let visit = 0; visit < WARM_VISITS; visit += 1) {
    const warm = await openRun(browser, url);
    contents.push(warm.marks.content ?? Number.NaN);
    charts.push(warm.marks.chart ?? Number.NaN);
    await warm.page.context().close();
  }
  return { coldContent: cold.marks.content ?? Number.NaN, coldChart: cold.marks.chart ?? Number.NaN, content: median(contents), chart: median(charts) };
}

/** The aggregated chart's figures: the first visit after the server started, and the median of later ones with their spread. */
async function aggregatedVisits(browser: Browser, url: string): Promise<Record<string, number>> {
  const cold = await openRun(browser, url);
  if ((await cold.page.getByTestId("flowchart").getAttribute("data-view")) !== "aggregated") throw new Error("the page did not draw the aggregated chart");
  await cold.page.context().close();
  const charts: number[] = [];
  for (let visit = 0; visit < WARM_VISITS; visit += 1) {
    const warm = await openRun(browser, url);
    charts.push(warm.marks.chart ?? Number.NaN);
    await warm.page.context().close();
  }
  return {
    aggregatedChart100kMs: median(charts),
    aggregatedChart100kSpreadMs: Math.max(...charts) - Math.min(...charts),
    aggregatedChart100kColdMs: cold.marks.chart ?? Number.NaN,
  };
}

/** Milliseconds from each → press to the painted update, over SCRUB_PRESSES presses. */
async function scrub(browser: Browser, url: string): Promise<number[]> {
  const { page } = await openRun(browser, url);
  // The whole timeline (the outline) must be in before the presses: the records list shows it.
  await page.getByTestId("records-list").waitFor({ timeout: 120_000 });
  await page.locator("h1").click();
  for (let press = 0; press < SCRUB_PRESSES; press += 1) {
    const before = await page.evaluate(() => (window as unknown as { __keys: number[] }).__keys.length);
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction((count) => (window as unknown as { __keys: number[] }).__keys.length > count, before, { timeout: 30_000 });
    await page.waitForTimeout(SCRUB_GAP_MS);
  }
  const keys = await page.evaluate(() => (window as unknown as { __keys: number[] }).__keys);
  await page.context().close();
  return keys;
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

/** `--only diff`, `--only aggregated` or `--only waterfall`: just those figures (the run pages' take minutes to gather). */
type Part = "diff" | "aggregated" | "waterfall";
function only(): Part | undefined {
  const at = process.argv.indexOf("--only");
  const value = at >= 0 ? process.argv[at + 1] : undefined;
  return value === "diff" || value === "aggregated" || value === "waterfall" ? value : undefined;
}

/** Navigation start to the waterfall's first bars, on the page's own clock: the first visit (cold), then the median of later ones. */
async function waterfallVisits(browser: Browser, url: string): Promise<{ cold: number; warm: number }> {
  const visit = async () => {
    const context = await browser.newContext({ viewport: { width: 1500, height: 1000 } });
    const page = await context.newPage();
    await page.addInitScript(PAGE_PROBE);
    // The figure is read from the page's own clock: waiting for "load" adds nothing to it.
    await page.goto(url, { waitUntil: "commit", timeout: 120_000 });
    await page.waitForFunction(() => (window as unknown as { __marks: Marks }).__marks.waterfall !== undefined, undefined, { timeout: 120_000 });
    const marks = await page.evaluate(() => (window as unknown as { __marks: Marks }).__marks);
    return { page, ms: marks.waterfall ?? Number.NaN };
  };
  const cold = await visit();
  await cold.page.context().close();
  const warm: number[] = [];
  for (let index = 0; index < WARM_VISITS; index += 1) {
    const next = await visit();
    warm.push(next.ms);
    await next.page.context().close();
  }
  return { cold: cold.ms, warm: median(warm) };
}

/** Frame-to-frame times while the waterfall's rows scroll a step each frame, and while idle (the baseline). */
async function waterfallScroll(browser: Browser, url: string): Promise<{ scrolling: number[]; idle: number[] }> {
  const context = await browser.newContext({ viewport: { width: 1500, height: 1000 } });
  const page = await context.newPage();
  await page.addInitScript(PAGE_PROBE);
  await page.goto(url, { waitUntil: "commit", timeout: 120_000 });
  await page.waitForFunction(() => (window as unknown as { __marks: Marks }).__marks.waterfall !== undefined, undefined, { timeout: 120_000 });
  // A string, not a function: tsx names inner functions with a helper the page does not have.
  const frames = (await page.evaluate(`(async () => {
    const scroller = document.querySelector('[data-testid="waterfall"]');
    const times = { idle: [], scrolling: [] };
    for (const key of ["idle", "scrolling"]) {
      let last = await new Promise((done) => requestAnimationFrame(done));
      for (let index = 0; index < ${WATERFALL_SCROLL_FRAMES}; index += 1) {
        if (key === "scrolling") scroller.scrollTop += ${WATERFALL_SCROLL_PX};
        const now = await new Promise((done) => requestAnimationFrame(done));
        times[key].push(now - last);
        last = now;
      }
    }
    return times;
  })()`)) as { idle: number[]; scrolling: number[] };
  await context.close();
  return frames;
}

async function waterfallFigures(browser: Browser, base: string): Promise<Record<string, number>> {
  const small = await waterfallVisits(browser, `${base}/runs/bench-100?tab=waterfall&at=50`);
  const large = await waterfallVisits(browser, `${base}/runs/bench-100k?tab=waterfall&at=50000`);
  process.stderr.write(
    `bench:ui: waterfall first paint: 100 records ${Math.round(small.warm)} ms, 100,000 records ${Math.round(large.warm)} ms (cold ${Math.round(large.cold)} ms)\n`,
  );
  const { scrolling, idle } = await waterfallScroll(browser, `${base}/runs/bench-100k?tab=waterfall&at=50000`);
  return {
    waterfall100FirstPaintMs: small.warm,
    waterfall100kFirstPaintMs: large.warm,
    waterfall100kFirstPaintColdMs: large.cold,
    waterfall100kVs100: large.warm / small.warm,
    waterfallScrollFrameMedianMs: median(scrolling),
    waterfallScrollFrameP90Ms: percentile(scrolling, 0.9),
    idleFrameMs: median(idle),
    waterfallScrollFrameVsIdle: median(scrolling) / median(idle),
  };
}

async function runUiBenchmark(context: BenchContext, useServer: boolean, part?: Part): Promise<Record<string, number | string>> {
  if (!existsSync(join(".next", "BUILD_ID")) || process.argv.includes("--build")) {
    context.log("bench:ui: building the app…");
    const code = await new Promise<number>((resolve) =>
      spawn(process.execPath, [NEXT_BIN, "build"], { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } }).on("exit", (exit) => resolve(exit ?? 1)),
    );
    if (code !== 0) throw new Error(`next build failed (${code})`);
  }
  const folder = useServer ? null : mkdtempSync(join(tmpdir(), "backtrack-bench-ui-"));
  const url = useServer ? await context.serverDatabase() : `pglite:${join(folder!, "db")}`;
  let server: ChildProcess | undefined;
  let browser: Browser | undefined;
  try {
    const store = await openStore({ url });
    const written = await time(async () => {
      if (part === "aggregated") {
        await writeBigRun(store, "bench-100k", 100_000);
        return;
      }
      if (part === "waterfall") {
        await writeBigRun(store, "bench-100", 100);
        await writeBigRun(store, "bench-100k", 100_000);
        return;
      }
      await writeBigRun(store, "bench-20k", 20_000);
      await writeBigRun(store, "bench-20k-b", 20_000, DIFF_DIVERGE_TURN);
      if (part === "diff") return;
      await writeBigRun(store, "bench-100", 100);
      await writeBigRun(store, "bench-100k", 100_000);
    });
    await store.close();
    context.log(
      `bench:ui: wrote ${part === "diff" ? "40,000" : part === "aggregated" ? "100,000" : part === "waterfall" ? "100,100" : "140,100"} records in ${Math.round(written.ms)} ms`,
    );
    server = spawn(process.execPath, [NEXT_BIN, "start", "-H", "127.0.0.1", "-p", String(PORT)], {
      env: { ...process.env, DATABASE_URL: url, BACKTRACK_DEMO: "0", NEXT_TELEMETRY_DISABLED: "1" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    const base = `http://127.0.0.1:${PORT}`;
    await waitForHealth(`${base}/api/health`, server);
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
    const database = useServer ? "server" : "embedded";
    context.log("bench:ui: the aggregated chart of a 100,000-record run…");
    const aggregatedFigures = part === "diff" ? {} : await aggregatedVisits(browser, `${base}/runs/bench-100k?at=50000&view=aggregated`);
    if (part === "aggregated") return { database, ...aggregatedFigures };
    if (part === "waterfall") {
      context.log("bench:ui: the waterfall of a 100,000-record run…");
      return { database, ...(await waterfallFigures(browser, base)) };
    }
    context.log("bench:ui: the diff page of two 20,000-record runs…");
    const diff = await visits(browser, `${base}/diff?a=bench-20k&b=bench-20k-b`);
    const diffFigures = { diffPage20kFirstContentMs: diff.content, diffPage20kFirstContentColdMs: diff.coldContent, diffPage20kChartMs: diff.chart };
    if (part === "diff") return { database, ...diffFigures };
    context.log("bench:ui: 100-record run…");
    const small = await visits(browser, `${base}/runs/bench-100?at=50&view=expanded`);
    context.log("bench:ui: 20,000-record run…");
    const medium = await visits(browser, `${base}/runs/bench-20k?at=10000&view=expanded`);
    const steps = await scrub(browser, `${base}/runs/bench-20k?at=10000&view=expanded`);
    context.log("bench:ui: 100,000-record run…");
    const large = await visits(browser, `${base}/runs/bench-100k?at=50000&view=expanded`);
    const largeSteps = await scrub(browser, `${base}/runs/bench-100k?at=50000&view=expanded`);
    context.log("bench:ui: the waterfall of the 100,000-record run…");
    const waterfall = await waterfallFigures(browser, base);
    return {
      database,
      runPage100FirstContentMs: small.content,
      runPage100FirstContentColdMs: small.coldContent,
      runPage100ChartMs: small.chart,
      runPage20kFirstContentMs: medium.content,
      runPage20kFirstContentColdMs: medium.coldContent,
      runPage20kChartMs: medium.chart,
      scrubStepMedianMs: median(steps),
      scrubStepP90Ms: percentile(steps, 0.9),
      scrubStepMaxMs: Math.max(...steps),
      runPage100kFirstContentMs: large.content,
      runPage100kFirstContentColdMs: large.coldContent,
      runPage100kChartMs: large.chart,
      scrub100kStepMedianMs: median(largeSteps),
      scrubPresses: steps.length,
      ...waterfall,
      ...diffFigures,
      ...aggregatedFigures,
    };
  } finally {
    await browser?.close();
    if (server && server.exitCode === null) {
      server.kill("SIGTERM");
      await new Promise((done) => server!.once("exit", done));
    }
    if (folder) rmSync(folder, { recursive: true, force: true });
  }
}

export const uiBenchmarks: Benchmark[] = [
  { name: "ui", run: (context) => runUiBenchmark(context, false) },
  { name: "ui-server", run: (context) => runUiBenchmark(context, true) },
];

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const useServer = process.argv.includes("--server");
  await withServerDatabases(async (context) => {
    const figures = await runUiBenchmark(context, useServer, only());
    const rounded = Object.fromEntries(Object.entries(figures).map(([key, value]) => [key, typeof value === "number" ? round(value) : value]));
    process.stdout.write(`${JSON.stringify({ benchmark: useServer ? "ui-server" : "ui", ...rounded })}\n`);
  });
}
