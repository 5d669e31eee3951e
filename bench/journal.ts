/**
 * Journal benchmarks on the server (issue "Foundation"):
 * - appendVsInsert: `do` appending ~1 KB records, one run after another on one connection, against
 *   a bare single-row INSERT loop through postgres.js into a table of the same shape and keys,
 *   the two loops alternating in blocks of five operations (see `alternating`);
 * - historyVsSelect: `history` of a 10,000-record run against a bare SELECT … ORDER BY seq.
 */
import postgres from "postgres";
import { openStore } from "../lib/store/index";
import { alternating, interleaved, time, type Benchmark } from "./harness";

const ROUNDS = 20;
const PER_ROUND = 250;
/** Untimed rounds first (1,500 calls of each loop): the figures are steady-state, not the JIT's warm-up. */
const WARMUP = 6;
const PAYLOAD = { text: "x".repeat(1000) };

const appendVsInsert: Benchmark = {
  name: "append",
  async run(context) {
    const url = await context.serverDatabase();
    const store = await openStore({ url, poolSize: 1 });
    const bare = postgres(url, { max: 1, onnotice: () => undefined });
    await bare`create table bare_records (like records including all)`;
    const text = JSON.stringify(PAYLOAD);
    const { append: appendPerSec, insert: insertPerSec } = await alternating(
      {
        insert: (round, index) =>
          bare`insert into bare_records (run_id, seq, name, kind, payload) values (${`bare-${round}`}, ${index}, ${`step-${index}`}, 'value', ${text}::text::json)`,
        append: (round, index) => store.do(`run-${round}`, `step-${index}`, () => PAYLOAD),
      },
      { rounds: ROUNDS, perRound: PER_ROUND, warmup: WARMUP },
    );
    await bare.end();
    await store.close();
    return { appendPerSec, insertPerSec, appendVsInsert: appendPerSec / insertPerSec, rounds: ROUNDS, perRound: PER_ROUND, warmupRounds: WARMUP };
  },
};

const historyVsSelect: Benchmark = {
  name: "history",
  async run(context) {
    const url = await context.serverDatabase();
    const store = await openStore({ url });
    const bare = postgres(url, { max: 1, onnotice: () => undefined });
    const runId = "history-10k";
    // Written through append (the real path) so that the summary row and seqs are the store's own.
    for (let index = 0; index < 10_000; index += 1) await store.append({ runId, name: `step-${index}`, kind: "value", payload: PAYLOAD });
    const { history: historyMs, select: selectMs } = await interleaved(9, {
      select: async () => (await time(() => bare`select run_id, seq, name, kind, payload, created_at from records where run_id = ${runId} order by seq`)).ms,
      history: async () => (await time(() => store.history(runId))).ms,
    });
    const check = await store.history(runId);
    if (check.length !== 10_000) throw new Error(`history returned ${check.length} records`);
    await bare.end();
    await store.close();
    return { historyMs, selectMs, historyVsSelect: historyMs / selectMs };
  },
};

export const journalBenchmarks: Benchmark[] = [appendVsInsert, historyVsSelect];
