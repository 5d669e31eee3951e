/**
 * The runs list's cost (issue 43): every store keeps RunSummary.costUsd priced by the caller's
 * table (Pricer), sorts by it both ways with unknown costs last, pages through both ranges with
 * keyset cursors, reprices only what is due (a new model turn, a new table) and prices runs that
 * no append wrote (forks, imports) alike. Each cost is checked against runCost over the records.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCost, runPricing, type PriceTable } from "@/lib/agent/pricing";
import { BadInputError } from "@/lib/journal/errors";
import { importRuns } from "@/lib/journal/import";
import { isForker, isPricer, type Journal } from "@/lib/journal/ports";
import { pricedRuns } from "@/lib/journal/pricing";
import type { RunQuery, RunSummary } from "@/lib/journal/types";
import type { PostgresStore } from "@/lib/store";
import { costRanges, DUE_SQL } from "@/lib/store/cost-sql";
import { STORE_KINDS } from "../helpers/databases";

const TABLE: PriceTable = {
  version: "test@1",
  source: "tests",
  date: "2026-12-07",
  prices: { "gpt-4o": { input: 2.5, output: 10 }, "openai/gpt-4o-mini": { input: 0.15, output: 0.6 } },
};

type Turn = { model?: string; inputTokens: number; outputTokens: number };

/** Each run: its model turns (between a header and a tool result, so the list has other records). */
const RUNS: Record<string, Turn[]> = {
  "cost-a": [{ model: "gpt-4o", inputTokens: 1000, outputTokens: 500 }],
  "cost-b": [{ model: "mystery-model", inputTokens: 10, outputTokens: 10 }],
  "cost-c": [
    { model: "gpt-4o", inputTokens: 4000, outputTokens: 1000 },
    { model: "openai.chat:gpt-4o-mini", inputTokens: 20_000, outputTokens: 3000 },
  ],
  "cost-d": [],
  "cost-e": [{ inputTokens: 5, outputTokens: 5 }],
  "cost-f": [{ model: "openai/gpt-4o-mini", inputTokens: 100, outputTokens: 100 }],
};

async function write(store: Journal, runId: string, turns: Turn[]): Promise<void> {
  await store.append({ runId, name: "run:start", kind: "header", payload: { agent: "pricing", input: runId } });
  for (const [index, turn] of turns.entries()) {
    const { model, ...usage } = turn;
    await store.append({ runId, name: `model:${index}`, kind: "model", payload: { ...(model ? { model } : {}), usage, message: { role: "assistant", content: "ok" } } });
    await store.append({ runId, name: `value:${index}`, kind: "value", payload: index });
  }
}

/** What the run header would show: runCost over the run's model records. */
async function expectedCost(store: Journal, runId: string, table: PriceTable): Promise<number | null> {
  const records = await store.history(runId);
  const turns = records
    .filter((record) => record.kind === "model")
    .map((record) => {
      const payload = record.payload as { model?: string; usage: { inputTokens: number; outputTokens: number } };
      return { model: payload.model, ...payload.usage };
    });
  return runCost(turns, table.prices).costUsd;
}

function expectCost(actual: number | null, expected: number | null, runId: string): void {
  if (expected === null) expect(actual, runId).toBeNull();
  else expect(actual, runId).toBeCloseTo(expected, 12);
}

async function allPages(store: Journal, query: RunQuery, table: PriceTable): Promise<RunSummary[]> {
  const runs: RunSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await pricedRuns(store, { ...query, cursor }, runPricing(table));
    runs.push(...page.runs);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return runs;
}

describe.each(STORE_KINDS)("run costs: $name", (kind) => {
  let store: Journal & { close(): Promise<void> };

  beforeAll(async () => {
    store = await kind.open();
    for (const [runId, turns] of Object.entries(RUNS)) await write(store, runId, turns);
  });
  afterAll(async () => {
    await store.close();
  });

  it("starts every run due and prices each as runCost prices its records", async () => {
    expect(isPricer(store)).toBe(true);
    expect((await store.run("cost-a"))?.costPending).toBe(true);
    const page = await pricedRuns(store, { agent: "pricing" }, runPricing(TABLE));
    expect(page.runs.every((run) => !run.costPending)).toBe(true);
    for (const run of page.runs) expectCost(run.costUsd, await expectedCost(store, run.runId, TABLE), run.runId);
    const costs = Object.fromEntries(page.runs.map((run) => [run.runId, run.costUsd]));
    expect(costs["cost-a"]).toBeCloseTo((1000 * 2.5 + 500 * 10) / 1e6, 12);
    expect([costs["cost-b"], costs["cost-e"]]).toEqual([null, null]);
    expect(costs["cost-d"]).toBe(0);
  });

  it("sorts by cost both ways with the unknown costs last, and pages through both ranges", async () => {
    const desc = await allPages(store, { agent: "pricing", sort: "cost", limit: 2 }, TABLE);
    expect(desc.map((run) => run.runId)).toEqual(["cost-c", "cost-a", "cost-f", "cost-d", "cost-e", "cost-b"]);
    const asc = await allPages(store, { agent: "pricing", sort: "cost", order: "asc", limit: 4 }, TABLE);
    expect(asc.map((run) => run.runId)).toEqual(["cost-d", "cost-f", "cost-a", "cost-c", "cost-b", "cost-e"]);
    const whole = await pricedRuns(store, { agent: "pricing", sort: "cost", order: "asc" }, runPricing(TABLE));
    expect(whole.runs.map((run) => run.runId)).toEqual(asc.map((run) => run.runId));
    expect(whole.nextCursor).toBeNull();
  });

  it("reprices a run after a new model turn, and every run under a new table", async () => {
    await store.append({ runId: "cost-f", name: "model:late", kind: "model", payload: { model: "gpt-4o", usage: { inputTokens: 2_000_000, outputTokens: 0 } } });
    expect((await store.run("cost-f"))?.costPending).toBe(true);
    const first = await allPages(store, { agent: "pricing", sort: "cost" }, TABLE);
    expect(first[0]?.runId).toBe("cost-f");
    expect(first[0]?.costUsd).toBeCloseTo((await expectedCost(store, "cost-f", TABLE))!, 12);

    const dearer: PriceTable = { ...TABLE, prices: { ...TABLE.prices, "gpt-4o": { input: 25, output: 100 } } };
    expect(runPricing(dearer).version).not.toBe(runPricing(TABLE).version);
    const repriced = await allPages(store, { agent: "pricing", sort: "cost" }, dearer);
    for (const run of repriced) expectCost(run.costUsd, await expectedCost(store, run.runId, dearer), run.runId);
    const known: PriceTable = { ...dearer, prices: { ...dearer.prices, "mystery-model": { input: 1e6, output: 0 } } };
    const withMystery = await allPages(store, { agent: "pricing", sort: "cost" }, known);
    expect(withMystery.map((run) => run.runId).slice(0, 1)).toEqual(["cost-f"]);
    expect(withMystery.find((run) => run.runId === "cost-b")?.costUsd).toBeCloseTo(10, 6);
    expect(withMystery.at(-1)?.runId).toBe("cost-e");
  });

  it("prices forks and imports, which no append wrote, as it prices appended runs", async () => {
    if (!isForker(store)) throw new Error(`${kind.name} is not a Forker`);
    // cost-c's records: 0 header, 1 model, 2 value, 3 model, 4 value; the fork keeps seq 1..2.
    await store.copyForFork({ sourceRunId: "cost-c", newRunId: "cost-c-fork", at: 3, header: { agent: "pricing", input: "fork" } });
    const lines = [
      { runId: "cost-imported", seq: 0, name: "run:start", kind: "header", payload: { agent: "pricing", input: "imported" } },
      { runId: "cost-imported", seq: 1, name: "model:0", kind: "model", payload: { model: "gpt-4o", usage: { inputTokens: 300, outputTokens: 30 } } },
    ];
    await importRuns(store, lines.map((line) => JSON.stringify(line)).join("\n"));
    const page = await pricedRuns(store, { agent: "pricing", sort: "cost" }, runPricing(TABLE));
    for (const runId of ["cost-c-fork", "cost-imported"]) {
      const run = page.runs.find((row) => row.runId === runId);
      expect(run?.costPending, runId).toBe(false);
      expect(run?.costUsd, runId).toBeCloseTo((await expectedCost(store, runId, TABLE))!, 12);
    }
    expect(page.runs.find((row) => row.runId === "cost-c-fork")?.costUsd).toBeCloseTo((4000 * 2.5 + 1000 * 10) / 1e6, 12);
  });

  it("refuses a cursor of the other sort or order with a typed error", async () => {
    const newest = await store.runs({ agent: "pricing", limit: 1 });
    const byCost = await pricedRuns(store, { agent: "pricing", sort: "cost", limit: 1 }, runPricing(TABLE));
    await expect(store.runs({ sort: "cost", cursor: newest.nextCursor! })).rejects.toBeInstanceOf(BadInputError);
    await expect(store.runs({ sort: "cost", order: "asc", cursor: byCost.nextCursor! })).rejects.toBeInstanceOf(BadInputError);
    await expect(store.runs({ cursor: byCost.nextCursor! })).rejects.toBeInstanceOf(BadInputError);
  });
});

describe.each(STORE_KINDS.filter((kind) => kind.name !== "memory"))("run costs' plans: $name", (kind) => {
  let store: PostgresStore;

  beforeAll(async () => {
    store = (await kind.open()) as unknown as PostgresStore;
    await store.client.exec(`
      INSERT INTO runs (run_id, agent, cost_usd, cost_table, cost_due, started_at)
      SELECT 'plan-' || g, 'agent-' || (g % 7), CASE WHEN g % 10 = 0 THEN NULL ELSE g / 1000.0 END, 'plan@1', g % 500 = 0, now() - g * interval '1 second'
      FROM generate_series(1, 5000) AS g;
      ANALYZE runs;`);
  });
  afterAll(async () => {
    await store.close();
  });

  async function plan(statement: { sql: string; params: unknown[] }): Promise<string> {
    const rows = await store.client.query<Record<string, string>>(`EXPLAIN ${statement.sql}`, statement.params);
    return rows.map((row) => Object.values(row)[0]).join("\n");
  }

  it("reads a cost-sorted page as ranges of runs_cost_idx, never sorting every run", async () => {
    for (const order of ["asc", "desc"] as const) {
      for (const range of costRanges(order, undefined)) {
        const text = await plan(store.costRunsQuery({}, range, 51).toSQL());
        expect(text, `${order}: ${text}`).toContain("runs_cost_idx");
        expect(text).not.toMatch(/Sort Key: runs\.cost_usd|Seq Scan on runs/);
      }
    }
  });

  it("finds the due runs through the partial index", async () => {
    await store.client.exec("SET enable_seqscan = off");
    const text = await plan({ sql: DUE_SQL, params: ["plan@1", 501, null] });
    await store.client.exec("RESET enable_seqscan");
    expect(text).toContain("runs_cost_due_idx");
  });
});
