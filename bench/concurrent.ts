/**
 * concurrentAppend (issue 18): 64 runs appending at once in one process on a pool of 8
 * connections (`store.do` of ~1 KB values, each run one after another), against 64 bare
 * single-row INSERT streams on a pool of 8 in the same run. Rounds alternate which goes first;
 * each round gives every stream PER_STREAM operations; the median round's operations per second
 * is reported. With the NOTIFY inside each append, PostgreSQL serialised the notifying commits
 * and the appends could not share a WAL flush; `notifyInStatementVsInsert` keeps that cost in
 * view (64 bare INSERT streams whose statement also NOTIFYs).
 */
import postgres from "postgres";
import { openStore } from "../lib/store/index";
import { interleaved, type Benchmark } from "./harness";

const STREAMS = 64;
const POOL = 8;
const PER_STREAM = 60;
const ROUNDS = 9;
const WARMUP = 2;
const PAYLOAD = { text: "x".repeat(1000) };

/** Operations per second of STREAMS loops of PER_STREAM steps each, all at once. */
async function perSecond(step: (stream: number, index: number) => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: STREAMS }, async (_, stream) => {
      for (let index = 0; index < PER_STREAM; index += 1) await step(stream, index);
    }),
  );
  return ((STREAMS * PER_STREAM) / (performance.now() - started)) * 1000;
}

const concurrentAppend: Benchmark = {
  name: "concurrentAppend",
  async run(context) {
    const url = await context.serverDatabase();
    const store = await openStore({ url, poolSize: POOL });
    const bare = postgres(url, { max: POOL, onnotice: () => undefined });
    await bare`create table bare_records (like records including all)`;
    const text = JSON.stringify(PAYLOAD);
    const insert = (prefix: string, round: number) => (stream: number, index: number) =>
      bare`insert into bare_records (run_id, seq, name, kind, payload) values (${`${prefix}-${round}-${stream}`}, ${index}, ${`step-${index}`}, 'value', ${text}::text::json)`;
    const figures = await interleaved(
      ROUNDS,
      {
        append: (round) => perSecond((stream, index) => store.do(`run-${round}-${stream}`, `step-${index}`, () => PAYLOAD)),
        insert: (round) => perSecond(insert("bare", round)),
        insertNotify: (round) =>
          perSecond(
            (stream, index) =>
              bare`with ins as (insert into bare_records (run_id, seq, name, kind, payload) values (${`notify-${round}-${stream}`}, ${index}, ${`step-${index}`}, 'value', ${text}::text::json) returning seq)
                   select pg_notify('bench_channel', json_build_array(${`notify-${round}-${stream}`}::text, ins.seq)::text) from ins`,
          ),
      },
      { warmup: WARMUP },
    );
    const written = await bare<{ count: string }[]>`select count(*)::text as count from records`;
    if (Number(written[0]?.count) !== (WARMUP + ROUNDS) * STREAMS * PER_STREAM) throw new Error(`wrote ${written[0]?.count} records`);
    await bare.end();
    await store.close();
    return {
      appendPerSec: figures.append,
      insertPerSec: figures.insert,
      concurrentAppendVsInsert: figures.append / figures.insert,
      notifyInStatementVsInsert: figures.insertNotify / figures.insert,
      streams: STREAMS,
      pool: POOL,
      perStream: PER_STREAM,
      rounds: ROUNDS,
      warmupRounds: WARMUP,
    };
  },
};

export const concurrentBenchmarks: Benchmark[] = [concurrentAppend];
