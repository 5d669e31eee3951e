/**
 * Time travel (issue 15). `fork100k`: fork a 100,000-record run at its model turn at or after
 * 99,000 on the PostgreSQL server (reserveFork: every check, then the one statement that copies
 * 99,000 records server-side and writes the fork's header, summary and edited record), against
 * a bare `INSERT … SELECT` of the same rows in the same run: the median of ROUNDS each,
 * interleaved. `bisect`: the forks bisectRun makes on a 1,000-decision run whose flip is at a
 * random k (MemStore: the count does not depend on the store), against ⌈log2 n⌉ + 1.
 */
import { randomInt } from "node:crypto";
import { demoRegistry } from "../lib/demo/registry";
import { bisectRun } from "../lib/fork/bisect";
import { bisectRegistry } from "../lib/fork/bisect-fixture";
import { reserveFork } from "../lib/fork/fork-run";
import { MemStore } from "../lib/journal/memory-store";
import { openStore } from "../lib/store/index";
import { writeBigRun } from "./big-runs";
import { median, time, type Benchmark } from "./harness";

const RECORDS = 100_000;
const FORK_AT = 99_000;
const ROUNDS = 5;
const DECISIONS = 1_000;
const BISECTS = 3;

const BARE_COPY = `
INSERT INTO records (run_id, seq, name, kind, payload, created_at)
SELECT $3::text, seq, name, kind, payload, created_at FROM records WHERE run_id = $1::text AND seq < $2::int`;

const fork100k: Benchmark = {
  name: "fork100k",
  async run(context) {
    const store = await openStore({ url: await context.serverDatabase() });
    try {
      context.log(`fork100k: writing ${RECORDS.toLocaleString("en-US")} records…`);
      await writeBigRun(store, "bench-fork-100k", RECORDS);
      const [turn] = (await store.client.query<{ seq: number }>(`SELECT min(seq) AS seq FROM records WHERE run_id = 'bench-fork-100k' AND kind = 'model' AND seq >= $1`, [
        FORK_AT,
      ])) as [{ seq: number }];
      const at = Number(turn.seq);
      const registry = demoRegistry();
      const forkMs: number[] = [];
      const bareMs: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const fork = async () => forkMs.push((await time(() => reserveFork(store, "bench-fork-100k", { at, edit: { kind: "text", text: "edited" }, registry }))).ms);
        const bare = async () => bareMs.push((await time(() => store.client.query(BARE_COPY, ["bench-fork-100k", at, `bench-bare-${round}`]))).ms);
        // Alternate which goes first, so that neither always meets the warmer cache.
        if (round % 2 === 0) await fork().then(bare);
        else await bare().then(fork);
      }
      const copied = await store.history(`bench-fork-100k~fork-1`, { from: at - 1, limit: 2 });
      if (copied[0]?.seq !== at - 1 || copied[1]?.seq !== at) throw new Error("the fork does not hold the copied records and its edit");
      const spread = (values: number[]) => Math.max(...values) - Math.min(...values);
      return {
        fork100kMs: median(forkMs),
        fork100kSpreadMs: spread(forkMs),
        fork100kBareMs: median(bareMs),
        fork100kBareSpreadMs: spread(bareMs),
        fork100kVsBare: median(forkMs) / median(bareMs),
        fork100kCopiedRecords: at,
      };
    } finally {
      await store.close();
    }
  },
};

const bisect: Benchmark = {
  name: "bisect",
  async run(context) {
    const counts: number[] = [];
    const flips: number[] = [];
    for (let index = 0; index < BISECTS; index += 1) {
      const flip = randomInt(DECISIONS - 1);
      const store = new MemStore();
      const registry = bisectRegistry(DECISIONS, flip);
      context.log(`bisect: a ${DECISIONS}-decision run flipping at ${flip}…`);
      await registry.agent("counter", store).run("bench-bisect", "count");
      const result = await bisectRun(store, "bench-bisect", { model: "count/flip", scorer: "same-decisions", registry });
      if (result.k !== flip) throw new Error(`bisect found ${result.k}, the flip is at ${flip}`);
      counts.push(result.forks.length);
      flips.push(flip);
    }
    return { bisectForks: Math.max(...counts), bisectForksMin: Math.min(...counts), bisectBound: Math.ceil(Math.log2(DECISIONS)) + 1, bisectFlips: flips.join(" ") };
  },
};

export const forkBenchmarks: Benchmark[] = [fork100k, bisect];
