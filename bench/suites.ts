/**
 * Suite benchmark on the server (issue "Regression suites"): 1,000 pinned demo-sized runs (copies
 * of order-123: model → chargeCard → model, 6 records each) replayed against their recorded
 * outputs by `runSuite` with concurrency 8, each replay diffed against its pin and scored.
 * The baseline, in the same run on the same database: 1,000 sequential single replays (replayRun
 * then diffRuns, what `backtrack replay` does per run). Rounds alternate which goes first.
 * Reported: suiteRunsPerSec, sequentialRunsPerSec and their ratio (the target: ≥ 3).
 */
import { demoRegistry } from "../lib/demo/registry";
import { billingAgent } from "../lib/demo/agents";
import { diffRuns } from "../lib/regression/diff-runs";
import { RECORDED_MODEL } from "../lib/regression/models";
import { replayRun } from "../lib/regression/replay-run";
import { openStore } from "../lib/store/index";
import { suiteStore } from "../lib/suites/pins";
import { runSuite } from "../lib/suites/run-suite";
import { median, time, type Benchmark } from "./harness";

const PINS = Number(process.env.BENCH_SUITE_PINS ?? 1_000);
const ROUNDS = Number(process.env.BENCH_SUITE_ROUNDS ?? 3);
const CONCURRENCY = 8;

const suite1000: Benchmark = {
  name: "suite1000",
  async run(context) {
    const url = await context.serverDatabase();
    const store = await openStore({ url, poolSize: 10 });
    const registry = demoRegistry();
    try {
      context.log(`  seeding ${PINS} demo-sized runs…`);
      await billingAgent(store).run("seed", "Please charge order 123.");
      // Copies of the seed run, row for row (setup, not measured).
      await store.client.exec(`
        INSERT INTO runs SELECT (json_populate_record(r, json_build_object('run_id', 'pin-' || lpad(g::text, 5, '0')))).*
        FROM runs r, generate_series(1, ${PINS}) AS g WHERE r.run_id = 'seed';
        INSERT INTO records SELECT (json_populate_record(x, json_build_object('run_id', 'pin-' || lpad(g::text, 5, '0')))).*
        FROM records x, generate_series(1, ${PINS}) AS g WHERE x.run_id = 'seed';
        INSERT INTO suite_pins (suite, run_id, pinned_by) SELECT 'bench', 'pin-' || lpad(g::text, 5, '0'), 'bench' FROM generate_series(1, ${PINS}) AS g;
        ANALYZE runs; ANALYZE records;`);
      const suites = suiteStore(store);
      const runIds = (await suites.pins("bench")).map((pin) => pin.runId);
      const suiteMs: number[] = [];
      const sequentialMs: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const measure = {
          suite: async () => {
            const { ms, value } = await time(() => runSuite({ journal: store, suites, registry, concurrency: CONCURRENCY }, { suite: "bench" }));
            if (value.counts.pass !== PINS) throw new Error(`the suite did not pass: ${JSON.stringify(value.counts)}`);
            suiteMs.push(ms);
          },
          sequential: async () => {
            const { ms } = await time(async () => {
              for (const runId of runIds) {
                const replayed = await replayRun({ journal: store, registry, runId, model: RECORDED_MODEL });
                const diff = await diffRuns(store, runId, replayed.newRunId);
                if (diff.divergentAt !== null) throw new Error(`${runId} diverged`);
              }
            });
            sequentialMs.push(ms);
          },
        };
        const order = round % 2 === 0 ? (["suite", "sequential"] as const) : (["sequential", "suite"] as const);
        for (const name of order) await measure[name]();
        context.log(`  round ${round + 1}: suite ${Math.round(suiteMs.at(-1) ?? 0)} ms, sequential ${Math.round(sequentialMs.at(-1) ?? 0)} ms`);
      }
      const suiteRunsPerSec = PINS / (median(suiteMs) / 1000);
      const sequentialRunsPerSec = PINS / (median(sequentialMs) / 1000);
      return {
        pins: PINS,
        concurrency: CONCURRENCY,
        rounds: ROUNDS,
        suiteRunsPerSec,
        sequentialRunsPerSec,
        ratio: suiteRunsPerSec / sequentialRunsPerSec,
        suiteMsRounds: suiteMs.map(Math.round).join(" "),
        sequentialMsRounds: sequentialMs.map(Math.round).join(" "),
      };
    } finally {
      await store.close();
    }
  },
};

export const suiteBenchmarks: Benchmark[] = [suite1000];
