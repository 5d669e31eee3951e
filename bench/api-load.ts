/**
 * `npm run bench -- apiUnderLoad` (needs a build: `npm run build`): /api/health's latency while ten
 * large requests run at once (issue 12 item 14). Two 200,000-record runs on a fresh PostgreSQL
 * database; `next start` on them; each round fires five /api/runs/{id}/state and five /api/diff
 * requests together and asks /api/health every HEALTH_GAP_MS until they are done.
 * - health{Cold,Warm}{Median,Max}Ms: health latency during the rounds, over all rounds. A cold round
 *   follows a server start, once its start-up is over (outline, timeline and diff are read and
 *   built once); a warm one reuses them.
 * - healthBareColdMaxMs: the same probe while ten /api/health requests start at once on a freshly
 *   started server instead (its own server, per round): what ten requests arriving together cost
 *   Next.js itself, whatever they do. The first probe is sent with the ten and waits behind them;
 *   healthColdAfterArrivalMaxMs leaves that one out.
 * - largestAnswerBytes: the largest of the ten answers (every default answer is bounded to 5 MB).
 * - load{Cold,Warm}Ms: the slowest of the ten requests, median over rounds.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { openStore } from "../lib/store/index";
import { writeBigRun } from "./big-runs";
import { median, type Benchmark, type BenchContext } from "./harness";
import { waitForHealth } from "./ui";

const PORT = Number(process.env.BENCH_API_PORT ?? 3221);
const RECORDS = 200_000;
const ROUNDS = 3;
const HEALTH_GAP_MS = 25;
const NEXT_BIN = join("node_modules", "next", "dist", "bin", "next");

function start(url: string): ChildProcess {
  return spawn(process.execPath, [NEXT_BIN, "start", "-H", "127.0.0.1", "-p", String(PORT)], {
    env: { ...process.env, DATABASE_URL: url, BACKTRACK_DEMO: "0", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

async function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return;
  server.kill("SIGTERM");
  await new Promise((done) => server.once("exit", done));
}

/** The ten large requests of a round. */
const LOAD_PATHS = [0, 1, 2, 3, 4].flatMap((index) => [`/api/runs/load-a/state?at=${RECORDS - 1 - index * 37_000}`, "/api/diff?a=load-a&b=load-b"]);
/** The baseline's ten: requests that cost the server nothing but Next.js's own handling. */
const BARE_PATHS = Array.from({ length: 10 }, () => "/api/health");

/** One round: the ten requests at once, health sampled until they are done. */
async function round(base: string, paths = LOAD_PATHS): Promise<{ health: number[]; slowestMs: number; largestBytes: number }> {
  const started = performance.now();
  let done = false;
  const load = Promise.all(
    paths.map(async (path) => {
      const response = await fetch(`${base}${path}`);
      const bytes = (await response.arrayBuffer()).byteLength;
      if (!response.ok) throw new Error(`${path} answered ${response.status}`);
      return { ms: performance.now() - started, bytes };
    }),
  ).finally(() => {
    done = true;
  });
  const health: number[] = [];
  while (!done) {
    const asked = performance.now();
    await fetch(`${base}/api/health`).then((response) => response.arrayBuffer());
    health.push(performance.now() - asked);
    await new Promise((resume) => setTimeout(resume, HEALTH_GAP_MS));
  }
  const answers = await load;
  return { health, slowestMs: Math.max(...answers.map((answer) => answer.ms)), largestBytes: Math.max(...answers.map((answer) => answer.bytes)) };
}

/**
 * Waits out the server's start-up: Next preloads its routes for about half a second after it
 * first answers, holding its thread. A cold round measures cold caches, not that preload, so it
 * starts once five health answers in a row came back within 50 ms.
 */
async function waitForStartUp(base: string): Promise<void> {
  for (let fast = 0; fast < 5;) {
    const asked = performance.now();
    await fetch(`${base}/api/health`).then((response) => response.arrayBuffer());
    fast = performance.now() - asked < 50 ? fast + 1 : 0;
    await new Promise((resume) => setTimeout(resume, HEALTH_GAP_MS));
  }
}

async function runApiLoad(context: BenchContext): Promise<Record<string, number | string>> {
  const url = await context.serverDatabase();
  const store = await openStore({ url });
  await writeBigRun(store, "load-a", RECORDS);
  await writeBigRun(store, "load-b", RECORDS, 20_000);
  await store.close();
  const base = `http://127.0.0.1:${PORT}`;
  const cold: Array<Awaited<ReturnType<typeof round>>> = [];
  const warm: Array<Awaited<ReturnType<typeof round>>> = [];
  const bare: Array<Awaited<ReturnType<typeof round>>> = [];
  /** A round on a server started for it, once its start-up is over. */
  const onFreshServer = async (rounds: () => Promise<void>) => {
    const server = start(url);
    try {
      await waitForHealth(`${base}/api/health`, server);
      await waitForStartUp(base);
      await rounds();
    } finally {
      await stop(server);
    }
  };
  for (let index = 0; index < ROUNDS; index += 1) {
    context.log(`bench:apiUnderLoad: round ${index + 1} of ${ROUNDS}…`);
    await onFreshServer(async () => {
      bare.push(await round(base, BARE_PATHS));
    });
    await onFreshServer(async () => {
      cold.push(await round(base));
      warm.push(await round(base));
    });
  }
  const all = (rounds: typeof cold) => rounds.flatMap((each) => each.health);
  return {
    database: "server",
    healthColdMedianMs: median(all(cold)),
    healthColdMaxMs: Math.max(...all(cold)),
    healthColdMaxPerRoundMs: cold.map((each) => Math.round(Math.max(...each.health))).join(" "),
    healthColdAfterArrivalMaxMs: Math.max(...cold.flatMap((each) => each.health.slice(1))),
    healthBareColdMaxPerRoundMs: bare.map((each) => Math.round(Math.max(...each.health))).join(" "),
    healthBareColdMaxMs: Math.max(...all(bare)),
    healthWarmMedianMs: median(all(warm)),
    healthWarmMaxMs: Math.max(...all(warm)),
    healthWarmMaxPerRoundMs: warm.map((each) => Math.round(Math.max(...each.health))).join(" "),
    loadColdMs: median(cold.map((each) => each.slowestMs)),
    loadWarmMs: median(warm.map((each) => each.slowestMs)),
    largestAnswerBytes: Math.max(...[...cold, ...warm].map((each) => each.largestBytes)),
  };
}

export const apiLoadBenchmarks: Benchmark[] = [{ name: "apiUnderLoad", run: runApiLoad }];
