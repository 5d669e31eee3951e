/**
 * Figures at scale (issue 18), on the server, opt-in (`npm run bench -- scale` runs all three;
 * each is slow: minutes and gigabytes). Rows are generated on the server with INSERT … SELECT
 * generate_series in a database created for the benchmark and dropped after it.
 * - scaleRunsList: the runs list's first page and a page 5,000,000 runs deep by keyset cursor, at
 *   10,000,000 runs (median of ROUNDS calls of store.runs). The two trigram search indexes are
 *   dropped before the rows go in (building them on 10M rows costs more than the rest together;
 *   neither page uses them). Then the partitioning simulation: `records` partitioned by run hash
 *   and by month, the runs list's last-record probe EXPLAINed against each, and the shards a page
 *   of 50 runs would touch with run_id as a distribution key over 32 shards.
 * - scaleRecover: recoverEnumerateMs, recovery's enumeration of unfinished runs (`unfinished`,
 *   the Lister pages recover reads) at 1,000,000 runs of which 10,000 are unfinished.
 * - pruneMillion: pruneRuns over 1,000,000 old runs of two records each, while another pool polls
 *   `/api/health`'s query (store.runs({ limit: 1 }), what the route runs) every 25 ms; the prune's
 *   time and the polls' p50, p99 and max. The HTTP server is left out: on two shared cores it
 *   would measure Next.js's scheduling, not the database's locks.
 */
import { encodeCursor } from "../lib/journal/cursor";
import { unfinished } from "../lib/recovery/recover";
import { pruneRuns } from "../lib/retention/prune";
import { openStore } from "../lib/store/index";
import type { PostgresStore } from "../lib/store/postgres-store";
import { median, time, type Benchmark, type BenchContext } from "./harness";

const ROUNDS = 9;

async function medianMs(work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) times.push((await time(work)).ms);
  return median(times);
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
}

/** Run g starts at 2026-01-01 + g seconds: the newest is g = count. */
function runsSql(from: number, to: number, options: { unfinishedEvery?: number; startedDaysAgo?: number } = {}): string {
  const every = options.unfinishedEvery ?? 0;
  const start =
    options.startedDaysAgo === undefined
      ? `timestamptz '2026-01-01' + g * interval '1 second'`
      : `now() - interval '${options.startedDaysAgo} days' + g * interval '1 millisecond'`;
  const status = every > 0 ? `CASE WHEN g % ${every} = 0 THEN 'running' ELSE 'complete' END` : `'complete'`;
  const completed = every > 0 ? `CASE WHEN g % ${every} = 0 THEN NULL ELSE ${start} END` : start;
  return `
    INSERT INTO runs (run_id, agent, status, input_text, model_turns, started_at, updated_at, completed_at)
    SELECT 'run-' || lpad(g::text, 8, '0'), 'agent-' || (g % 20), ${status}, 'Audit account ' || g, 3, ${start}, ${start}, ${completed}
    FROM generate_series(${from}, ${to}) AS g`;
}

/**
 * Writes `count` runs a million a statement. The secondary indexes are dropped first and built
 * again after (a sorted build, not ten million insertions into each), as a bulk load would do.
 */
async function writeRuns(context: BenchContext, store: PostgresStore, count: number, options: Parameters<typeof runsSql>[2] = {}): Promise<number> {
  const chunk = 1_000_000;
  const indexes = await store.client.query<{ name: string; definition: string }>(
    `SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE tablename = 'runs' AND indexname <> 'runs_pkey'`,
  );
  const written = await time(async () => {
    for (const index of indexes) await store.client.exec(`DROP INDEX ${index.name}`);
    for (let from = 1; from <= count; from += chunk) {
      context.log(`  runs ${from.toLocaleString("en-US")}…`);
      await store.client.exec(runsSql(from, Math.min(count, from + chunk - 1), options));
    }
    context.log("  indexes…");
    for (const index of indexes) await store.client.exec(index.definition);
    await store.client.exec("VACUUM ANALYZE runs");
  });
  return written.ms;
}

const PAGE_PROBE = (table: string) => `
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
SELECT r.run_id, last.seq FROM runs r
LEFT JOIN LATERAL (SELECT seq FROM ${table} rec WHERE rec.run_id = r.run_id ORDER BY seq DESC LIMIT 1) last ON true
ORDER BY r.started_at DESC NULLS LAST, r.run_id DESC NULLS LAST LIMIT 51`;

/** `records` partitioned by run hash (16) and by month (12), holding the newest 500,000 runs' records. */
async function partitionSimulation(store: PostgresStore, count: number): Promise<Record<string, number | string>> {
  const partitions = Array.from(
    { length: 16 },
    (_, index) => `CREATE TABLE records_hash_${index} PARTITION OF records_by_hash FOR VALUES WITH (MODULUS 16, REMAINDER ${index});`,
  ).join("\n");
  const months = Array.from({ length: 12 }, (_, index) => {
    const from = `2026-${String(index + 1).padStart(2, "0")}-01`;
    const to = index === 11 ? "2027-01-01" : `2026-${String(index + 2).padStart(2, "0")}-01`;
    return `CREATE TABLE records_month_${index} PARTITION OF records_by_month FOR VALUES FROM ('${from}') TO ('${to}');`;
  });
  await store.client.exec(`
    CREATE TABLE records_by_hash (LIKE records INCLUDING DEFAULTS, PRIMARY KEY (run_id, seq)) PARTITION BY HASH (run_id);
    ${partitions}
    CREATE TABLE records_by_month (LIKE records INCLUDING DEFAULTS, PRIMARY KEY (run_id, seq, created_at)) PARTITION BY RANGE (created_at);
    ${months.join("\n")}
    INSERT INTO records_by_hash (run_id, seq, name, kind, payload, created_at)
      SELECT r.run_id, s, 'step-' || s, 'value', '{}'::json, r.started_at FROM runs r, generate_series(0, 1) AS s WHERE r.run_id > 'run-' || lpad('${count - 500_000}', 8, '0');
    INSERT INTO records_by_month SELECT * FROM records_by_hash;
    ANALYZE records_by_hash; ANALYZE records_by_month;`);
  const plan = async (table: string) => (await store.client.query<{ "QUERY PLAN": string }>(PAGE_PROBE(table))).map((row) => row["QUERY PLAN"]);
  // Index probes of partitions for one page: the sum of the partition scans' loops.
  const probes = (lines: string[]) =>
    lines.filter((line) => /Index (Only )?Scan.*on records_(hash|month)_\d+/.test(line)).reduce((sum, line) => sum + Number(/loops=(\d+)/.exec(line)?.[1] ?? 0), 0);
  const partitionsTouched = (lines: string[]) => lines.filter((line) => /Index (Only )?Scan.*on records_(hash|month)_\d+/.test(line) && !/never executed/.test(line)).length;
  const hashPlan = await plan("records_by_hash");
  const monthPlan = await plan("records_by_month");
  const [shards] = await store.client.query<{ shards: number }>(`
    SELECT count(DISTINCT abs(hashtext(run_id)) % 32)::int AS shards FROM (
      SELECT run_id FROM runs ORDER BY started_at DESC NULLS LAST, run_id DESC NULLS LAST LIMIT 50) AS page`);
  return {
    pageProbeHashMs: await medianMs(() => store.client.query(PAGE_PROBE("records_by_hash").replace(/^\s*EXPLAIN[^\n]*\n/, ""))),
    pageProbeMonthMs: await medianMs(() => store.client.query(PAGE_PROBE("records_by_month").replace(/^\s*EXPLAIN[^\n]*\n/, ""))),
    pageProbeFlatMs: await medianMs(() => store.client.query(PAGE_PROBE("records").replace(/^\s*EXPLAIN[^\n]*\n/, ""))),
    hashPartitionsTouchedPerPage: partitionsTouched(hashPlan),
    hashProbesPerPage: probes(hashPlan),
    monthPartitionsTouchedPerPage: partitionsTouched(monthPlan),
    monthProbesPerPage: probes(monthPlan),
    shardsPerPageOf50At32Shards: shards?.shards ?? 0,
    hashPlan: hashPlan.slice(0, 14).join(" | "),
    monthPlan: monthPlan.slice(0, 14).join(" | "),
  };
}

const scaleRunsList: Benchmark = {
  name: "scaleRunsList",
  async run(context) {
    const count = Number(process.env.BENCH_SCALE_RUNS ?? 10_000_000);
    const url = await context.serverDatabase();
    const store = await openStore({ url, poolSize: 2 });
    await store.client.exec("DROP INDEX runs_run_id_search_idx; DROP INDEX runs_input_text_trgm_idx;");
    context.log(`scaleRunsList: writing ${count.toLocaleString("en-US")} runs…`);
    const writeMs = await writeRuns(context, store, count);
    const depth = count / 2;
    // The run `depth` places down the newest-first list is g = count - depth + 1.
    const g = count - depth + 1;
    const cursor = encodeCursor({ runId: `run-${String(g).padStart(8, "0")}`, startedAt: new Date(Date.parse("2026-01-01T00:00:00Z") + g * 1000).toISOString() });
    const deep = await store.runs({ cursor, limit: 50 });
    if (deep.runs.length !== 50 || deep.runs[0]?.runId !== `run-${String(g - 1).padStart(8, "0")}`) throw new Error(`the deep page starts at ${deep.runs[0]?.runId}`);
    const figures = {
      runs: count,
      writeMs,
      firstPageMs: await medianMs(() => store.runs({ limit: 50 })),
      deepKeysetPageMs: await medianMs(() => store.runs({ cursor, limit: 50 })),
      statusPageMs: await medianMs(() => store.runs({ status: "complete", limit: 50 })),
      agentPageMs: await medianMs(() => store.runs({ agent: "agent-7", limit: 50 })),
    };
    context.log("scaleRunsList: partitioned records…");
    const simulation = await partitionSimulation(store, count);
    await store.close();
    return { ...figures, ...simulation };
  },
};

const scaleRecover: Benchmark = {
  name: "scaleRecover",
  async run(context) {
    const count = 1_000_000;
    const unfinishedCount = 10_000;
    const url = await context.serverDatabase();
    const store = await openStore({ url, poolSize: 2 });
    context.log(`scaleRecover: writing ${count.toLocaleString("en-US")} runs, ${unfinishedCount.toLocaleString("en-US")} unfinished…`);
    const writeMs = await writeRuns(context, store, count, { unfinishedEvery: count / unfinishedCount });
    const listed = await unfinished(store);
    if (listed.length !== unfinishedCount) throw new Error(`enumerated ${listed.length} unfinished runs`);
    const figures = { runs: count, unfinished: unfinishedCount, writeMs, recoverEnumerateMs: await medianMs(() => unfinished(store)) };
    await store.close();
    return figures;
  },
};

const pruneMillion: Benchmark = {
  name: "pruneMillion",
  async run(context) {
    const count = Number(process.env.BENCH_PRUNE_RUNS ?? 1_000_000);
    const url = await context.serverDatabase();
    const store = await openStore({ url, poolSize: 2 });
    const health = await openStore({ url, poolSize: 1 });
    context.log(`pruneMillion: writing ${count.toLocaleString("en-US")} old runs of two records…`);
    await writeRuns(context, store, count, { startedDaysAgo: 60 });
    await store.client.exec(`
      INSERT INTO records (run_id, seq, name, kind, payload, created_at)
      SELECT run_id, s, CASE WHEN s = 0 THEN 'run:start' ELSE 'run:complete' END, CASE WHEN s = 0 THEN 'header' ELSE 'value' END,
             CASE WHEN s = 0 THEN '{"input":"audit","agent":"bench"}' ELSE '{"text":"done"}' END::json, started_at
      FROM runs, generate_series(0, 1) AS s`);
    await store.client.exec("VACUUM ANALYZE records");
    await health.runs({ limit: 1 });
    const polls: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        polls.push((await time(() => health.runs({ limit: 1 }))).ms);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    const pruned = await time(() => pruneRuns(store, { olderThan: 30 * 86_400_000 }));
    polling = false;
    await poller;
    context.log(`pruneMillion: pruned in ${Math.round(pruned.ms)} ms`);
    if (pruned.value.runs !== count) throw new Error(`pruned ${pruned.value.runs} runs`);
    await Promise.all([store.close(), health.close()]);
    return {
      runs: count,
      records: pruned.value.records,
      batches: pruned.value.batches,
      pruneMs: pruned.ms,
      prunedPerSec: (count / pruned.ms) * 1000,
      healthPolls: polls.length,
      healthP50Ms: percentile(polls, 0.5),
      healthP99Ms: percentile(polls, 0.99),
      healthMaxMs: Math.max(...polls),
    };
  },
};

/** Opt-in: run.ts runs these only when named (`npm run bench -- scale` names all three). */
export const scaleBenchmarks: Benchmark[] = [scaleRunsList, scaleRecover, pruneMillion];
