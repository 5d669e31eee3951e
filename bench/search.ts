/**
 * Search inside a 100,000-record run on the server (issue 16), on the embedded database and the
 * PostgreSQL server, the way the server searches (lib/pool/search.ts: pages made by the database,
 * turned into redacted texts and searched in the projection pool's workers): the first search of a
 * run (its records read once, redacted and kept as packed text), then the searches that follow
 * (`search100kMs`, the median of ROUNDS; a substring and a regular expression), against a bare
 * baseline over the same texts in the same run: `String.prototype.includes` on each text
 * lower-cased, with no hit list at all. Needs the worker (`npm run build:workers`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { recordsSource, type SearchSource } from "../lib/inspect/search";
import { ProjectionPool } from "../lib/pool/pool";
import { PooledSearch } from "../lib/pool/search";
import { openStore } from "../lib/store/index";
import { writeBigRun } from "./big-runs";
import { median, time, type Benchmark, type BenchContext } from "./harness";

const RECORDS = 100_000;
const ROUNDS = 9;

function bare(source: SearchSource, needle: string): number {
  let hits = 0;
  for (let seq = 0; seq < source.length; seq += 1) if (source.text(seq).toLowerCase().includes(needle)) hits += 1;
  return hits;
}

async function figuresOn(url: string, database: string, context: BenchContext): Promise<Record<string, number>> {
  const store = await openStore({ url });
  const pool = new ProjectionPool();
  try {
    context.log(`search: writing ${RECORDS.toLocaleString("en-US")} records (${database})…`);
    await writeBigRun(store, "bench-search-100k", RECORDS);
    const run = (await store.run("bench-search-100k"))!;
    const searches = new PooledSearch(store, pool, undefined);
    const substring = "ACCT-2790";
    const pattern = '/acct-27[0-9]{3}"/';
    const cold = await time(() => searches.search(run, substring));
    const source = recordsSource(await store.history("bench-search-100k"));
    const substringMs: number[] = [];
    const regexMs: number[] = [];
    const bareMs: number[] = [];
    let hits = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      substringMs.push((await time(async () => (hits = (await searches.search(run, substring)).total))).ms);
      regexMs.push((await time(() => searches.search(run, pattern))).ms);
      bareMs.push((await time(async () => bare(source, "acct-2790"))).ms);
    }
    if (hits !== bare(source, "acct-2790")) throw new Error(`search found ${hits} hits, the baseline ${bare(source, "acct-2790")}`);
    const spread = (values: number[]) => Math.max(...values) - Math.min(...values);
    return {
      [`${database}Search100kMs`]: median(substringMs),
      [`${database}Search100kSpreadMs`]: spread(substringMs),
      [`${database}SearchRegex100kMs`]: median(regexMs),
      [`${database}SearchBare100kMs`]: median(bareMs),
      [`${database}SearchVsBare`]: median(substringMs) / median(bareMs),
      [`${database}SearchFirst100kMs`]: cold.ms,
      [`${database}SearchHits`]: hits,
    };
  } finally {
    await pool.close();
    await store.close();
  }
}

const search: Benchmark = {
  name: "search",
  async run(context) {
    const folder = mkdtempSync(join(tmpdir(), "backtrack-bench-search-"));
    try {
      const embedded = await figuresOn(`pglite:${folder}`, "embedded", context);
      const server = await figuresOn(await context.serverDatabase(), "server", context);
      return { records: RECORDS, ...embedded, ...server };
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  },
};

export const searchBenchmarks: Benchmark[] = [search];
