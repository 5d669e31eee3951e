/**
 * appendCosts (issue 18): what an append costs, part by part, on one connection to the server.
 * Every loop appends ~1 KB values one after another, alternating with the others in blocks of
 * five operations (see `alternating`), so that all meet the same fsync latency:
 * - insert: the bare single-row INSERT of the `append` benchmark (postgres.js tagged template);
 * - insertNotify: the same INSERT plus a pg_notify in the same statement (the NOTIFY per append);
 * - appendSql: the store's hot append statement (APPEND_PLAIN_AT_SQL) sent raw through postgres.js,
 *   without the store's JavaScript (the statement's shape: the summary row's conditional UPDATE);
 * - storeAppend: `store.append` (validation, payload encoding, per-run ordering, the SqlClient);
 * - storeDo: `store.do`, what `append` measures (memoization on top).
 * Each figure is per second; `…VsInsert` is the ratio to `insert` in the same run.
 */
import postgres from "postgres";
import { APPEND_PLAIN_AT_SQL } from "../lib/store/append-sql";
import { openStore } from "../lib/store/index";
import { alternating, type Benchmark } from "./harness";

const ROUNDS = 12;
const PER_ROUND = 200;
const WARMUP = 4;
const PAYLOAD = { text: "x".repeat(1000) };

const appendCosts: Benchmark = {
  name: "appendCosts",
  async run(context) {
    const url = await context.serverDatabase();
    const store = await openStore({ url, poolSize: 1 });
    const bare = postgres(url, { max: 1, onnotice: () => undefined });
    await bare`create table bare_records (like records including all)`;
    const text = JSON.stringify(PAYLOAD);
    // The raw statement needs the run's summary row, as the store's hot path has it.
    const rawRuns = Array.from({ length: WARMUP + ROUNDS }, (_, round) => `raw-${round}`);
    for (const runId of rawRuns) await bare`insert into runs (run_id, agent) values (${runId}, 'bench')`;
    const perSec = await alternating(
      {
        insert: (round, index) =>
          bare`insert into bare_records (run_id, seq, name, kind, payload) values (${`bare-${round}`}, ${index}, ${`step-${index}`}, 'value', ${text}::text::json)`,
        insertNotify: (round, index) =>
          bare`with ins as (insert into bare_records (run_id, seq, name, kind, payload) values (${`notify-${round}`}, ${index}, ${`step-${index}`}, 'value', ${text}::text::json) returning seq)
               select pg_notify('bench_channel', json_build_array(${`notify-${round}`}::text, ins.seq, 'value', 'running')::text) from ins`,
        appendSql: (round, index) => bare.unsafe(APPEND_PLAIN_AT_SQL, [rawRuns[round]!, `step-${index}`, "value", text, index], { prepare: true }),
        storeAppend: (round, index) => store.append({ runId: `append-${round}`, name: `step-${index}`, kind: "value", payload: PAYLOAD }),
        storeDo: (round, index) => store.do(`do-${round}`, `step-${index}`, () => PAYLOAD),
      },
      { rounds: ROUNDS, perRound: PER_ROUND, warmup: WARMUP },
    );
    await bare.end();
    await store.close();
    const ratios = Object.fromEntries(Object.entries(perSec).map(([key, value]) => [`${key}VsInsert`, value / perSec.insert]));
    return { ...perSec, ...ratios, rounds: ROUNDS, perRound: PER_ROUND, warmupRounds: WARMUP };
  },
};

export const appendCostBenchmarks: Benchmark[] = [appendCosts];
