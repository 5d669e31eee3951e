/**
 * The runs list over a million runs on the server (issue "Inspector I"): the first page, a page
 * half a million runs deep by keyset cursor (against the OFFSET query it replaces), a page filtered
 * by status and by agent, searches by part of a run id and of the input text (pg_trgm indexes),
 * the agent names, and the cost sort (issue 43: the first page through pricedRuns, as the list
 * asks, a page half a million runs deep, and one among the unknown costs, sorted last). Each
 * figure is the median of ROUNDS calls of the store, in milliseconds.
 */
import { encodeCostCursor, encodeCursor } from "../lib/journal/cursor";
import type { RunPricing } from "../lib/journal/ports";
import { pricedRuns } from "../lib/journal/pricing";
import { agentNames } from "../lib/store/agents";
import { openStore } from "../lib/store/index";
import { median, time, type Benchmark } from "./harness";

const RUNS = 1_000_000;
const ROUNDS = 9;

async function medianMs(work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) times.push((await time(work)).ms);
  return median(times);
}

const runsList: Benchmark = {
  name: "runs-list",
  async run(context) {
    const url = await context.serverDatabase();
    const store = await openStore({ url, poolSize: 2 });
    context.log(`runs-list: writing ${RUNS.toLocaleString("en-US")} runs…`);
    const written = await time(() =>
      store.client.exec(`
        INSERT INTO runs (run_id, agent, status, input_text, model_turns, started_at, updated_at, completed_at, cost_usd, cost_table, cost_due)
        SELECT 'run-' || lpad(g::text, 7, '0'),
               'agent-' || (g % 20),
               CASE WHEN g % 50 = 0 THEN 'failed' WHEN g % 97 = 0 THEN 'paused' WHEN g % 13 = 0 THEN 'running' ELSE 'complete' END,
               'Please audit account ' || md5(g::text) || ' for anomalies.',
               3,
               timestamptz '2026-01-01' + g * interval '1 second',
               timestamptz '2026-01-01' + g * interval '1 second' + interval '3 seconds',
               timestamptz '2026-01-01' + g * interval '1 second' + interval '3 seconds',
               CASE WHEN g % 10 = 0 THEN NULL ELSE ((g::bigint * 7919) % 100000) / 1e4 END, 'bench', false
        FROM generate_series(1, ${RUNS}) AS g;
        ANALYZE runs;`),
    );
    // The row half-way down the list, newest first: its keyset cursor, and the OFFSET that reaches it.
    const depth = RUNS / 2;
    const [middle] = await store.client.query<{ run_id: string; started_at: Date }>(
      `SELECT run_id, started_at FROM runs ORDER BY started_at DESC, run_id DESC OFFSET ${depth - 1} LIMIT 1`,
    );
    const cursor = encodeCursor({ runId: middle!.run_id, startedAt: new Date(middle!.started_at).toISOString() });
    const deep = await store.runs({ cursor, limit: 50 });
    if (deep.runs.length !== 50) throw new Error(`the deep page has ${deep.runs.length} runs`);
    const pricing: RunPricing = { version: "bench", cost: () => 0 };
    const [costMiddle] = await store.client.query<{ run_id: string; cost_usd: number }>(
      `SELECT run_id, cost_usd FROM runs WHERE cost_usd IS NOT NULL ORDER BY cost_usd DESC, run_id DESC OFFSET ${depth - 1} LIMIT 1`,
    );
    const costCursor = encodeCostCursor({ costUsd: Number(costMiddle!.cost_usd), runId: costMiddle!.run_id }, "desc");
    const unknownCursor = encodeCostCursor({ costUsd: null, runId: "run-0500000" }, "desc");
    const figures = {
      runs: RUNS,
      writeMs: written.ms,
      firstPageMs: await medianMs(() => store.runs({ limit: 50 })),
      deepKeysetPageMs: await medianMs(() => store.runs({ cursor, limit: 50 })),
      deepOffsetPageMs: await medianMs(() => store.client.query(`SELECT * FROM runs ORDER BY started_at DESC, run_id DESC OFFSET ${depth} LIMIT 51`)),
      statusPageMs: await medianMs(() => store.runs({ status: "failed", limit: 50 })),
      agentPageMs: await medianMs(() => store.runs({ agent: "agent-7", limit: 50 })),
      searchRunIdMs: await medianMs(() => store.runs({ search: "run-012345", limit: 50 })),
      searchInputMs: await medianMs(() => store.runs({ search: "c4ca4238a0", limit: 50 })),
      agentNamesMs: await medianMs(() => agentNames(store.client)),
      costFirstPageMs: await medianMs(() => pricedRuns(store, { sort: "cost", limit: 50 }, pricing)),
      costDeepPageMs: await medianMs(() => store.runs({ sort: "cost", cursor: costCursor, limit: 50 })),
      costUnknownPageMs: await medianMs(() => store.runs({ sort: "cost", cursor: unknownCursor, limit: 50 })),
      costAgentPageMs: await medianMs(() => store.runs({ sort: "cost", agent: "agent-7", limit: 50 })),
    };
    const found = await store.runs({ search: "c4ca4238a0" });
    if (found.runs[0]?.runId !== "run-0000001") throw new Error("the input-text search did not find run-0000001");
    await store.close();
    return figures;
  },
};

export const runsListBenchmarks: Benchmark[] = [runsList];
