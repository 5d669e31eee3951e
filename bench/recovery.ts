/**
 * Recovery benchmark on the server (issue "Crash recovery"): 100,000 runs, 1,000 unfinished.
 * - recoverEnumerateMs: enumerating the unfinished runs as recover does (Lister pages), median of
 *   rounds; against a bare SELECT of the same ids through postgres.js in the same rounds;
 * - recoverMs: one whole recover pass over the 1,000 with a resume that does nothing: per run a
 *   lease acquired and released and a run:complete check (the drive itself is not measured).
 * The runs are seeded with bulk INSERT … SELECT generate_series (setup, not measured).
 */
import postgres from "postgres";
import { recover, unfinished } from "../lib/recovery/recover";
import { openStore } from "../lib/store/index";
import { median, time, type Benchmark } from "./harness";

const RUNS = 100_000;
const UNFINISHED = 1_000;
const ROUNDS = 9;

const recoverEnumerate: Benchmark = {
  name: "recover",
  async run(context) {
    const url = await context.serverDatabase();
    const store = await openStore({ url });
    const bare = postgres(url, { max: 1, onnotice: () => undefined });
    context.log(`  seeding ${RUNS} runs, ${UNFINISHED} unfinished…`);
    // Every UNFINISHED-th run is unfinished; the others have run:complete. Each has its run:start.
    const every = RUNS / UNFINISHED;
    await store.client.exec(`
      INSERT INTO runs (run_id, agent, status, started_at, updated_at, completed_at)
      SELECT 'run-' || lpad(g::text, 6, '0'), 'bench',
             CASE WHEN g % ${every} = 0 THEN 'running' ELSE 'complete' END,
             now(), now(), CASE WHEN g % ${every} = 0 THEN NULL ELSE now() END
      FROM generate_series(1, ${RUNS}) AS g;
      INSERT INTO records (run_id, seq, name, kind, payload)
      SELECT 'run-' || lpad(g::text, 6, '0'), 0, 'run:start', 'header', '{"input":"bench","agent":"bench","model":"bench","tools":[]}'::json
      FROM generate_series(1, ${RUNS}) AS g;
      INSERT INTO records (run_id, seq, name, kind, payload)
      SELECT 'run-' || lpad(g::text, 6, '0'), 1, 'run:complete', 'value', '{"value":{"text":"done"}}'::json
      FROM generate_series(1, ${RUNS}) AS g WHERE g % ${every} <> 0;
      ANALYZE runs; ANALYZE records;`);

    const enumerations: number[] = [];
    const selects: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const enumerate = async () => {
        const { ms, value } = await time(() => unfinished(store));
        if (value.length !== UNFINISHED) throw new Error(`enumerated ${value.length} runs, expected ${UNFINISHED}`);
        enumerations.push(ms);
      };
      const select = async () => selects.push((await time(() => bare`select run_id from runs where status <> 'complete' order by run_id`)).ms);
      if (round % 2 === 0) {
        await select();
        await enumerate();
      } else {
        await enumerate();
        await select();
      }
    }

    let resumed = 0;
    const pass = await time(() =>
      recover(store, async () => {
        resumed += 1;
      }),
    );
    if (resumed !== UNFINISHED || pass.value.n !== UNFINISHED) throw new Error(`recover resumed ${resumed} runs`);
    await bare.end();
    await store.close();
    const recoverEnumerateMs = median(enumerations);
    const bareSelectMs = median(selects);
    return {
      runs: RUNS,
      unfinished: UNFINISHED,
      recoverEnumerateMs,
      bareSelectMs,
      enumerateVsSelect: recoverEnumerateMs / bareSelectMs,
      recoverMs: pass.ms,
      recoverPerRunMs: pass.ms / UNFINISHED,
    };
  },
};

export const recoveryBenchmarks: Benchmark[] = [recoverEnumerate];
