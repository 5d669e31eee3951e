/**
 * PostgresStore's Pricer (lib/journal/ports.ts) and the cost sort of the runs list.
 * Invariants:
 * - the database never prices: one statement reads the due runs and the per-model usage of their
 *   model records after priced_seq (all of them when the run was priced under another table), in
 *   one snapshot; the process prices them (RunPricing); a second statement writes the costs;
 * - the write sets cost_due to "model_turns moved since the read": an append of a model record
 *   in between (which bumps model_turns and sets cost_due in one statement) leaves the run due;
 *   it never moves priced_seq back under the same table;
 * - a new table version marks every run priced under another due, once per store and version;
 * - the cost sort reads the priced runs in cost order, then the unknown (NULL) ones, as two
 *   ranges of runs_cost_idx, so that unknown costs come last both ways under keyset paging.
 */
import { sql, type SQL } from "drizzle-orm";
import { decodeCostCursor } from "../journal/cursor";
import type { ModelUsage, PriceRunsOptions, RunPricing } from "../journal/ports";
import type { SortOrder } from "../journal/types";
import { tokenCount } from "./rows";
import { runs } from "./schema/index";
import type { SqlClient } from "./sql-client";

const DEFAULT_LIMIT = 500;

export const DUE_SQL = `
WITH due AS (
  SELECT run_id, model_turns,
         CASE WHEN cost_table IS NOT DISTINCT FROM $1::text THEN priced_seq ELSE -1 END AS from_seq,
         CASE WHEN cost_table IS NOT DISTINCT FROM $1::text THEN cost_usd ELSE 0 END AS base
  FROM runs
  WHERE cost_due AND ($3::text IS NULL OR run_id IN (SELECT json_array_elements_text($3::text::json)))
  ORDER BY run_id
  LIMIT $2::int
)
SELECT d.run_id, d.model_turns, d.base,
  coalesce((SELECT max(seq) FROM records r WHERE r.run_id = d.run_id), -1) AS last_seq,
  (SELECT json_agg(json_build_array(u.model, u.turns, u.input_tokens, u.output_tokens))::text FROM (
     SELECT CASE WHEN json_typeof(payload->'model') = 'string' THEN payload->>'model' END AS model, count(*) AS turns,
            sum(${tokenCount("inputTokens")}) AS input_tokens, sum(${tokenCount("outputTokens")}) AS output_tokens
     FROM records r WHERE r.run_id = d.run_id AND r.seq > d.from_seq AND r.kind = 'model'
     GROUP BY 1) u) AS usage
FROM due d`;

const WRITE_SQL = `
UPDATE runs AS r SET cost_usd = v.cost, cost_table = $1::text, priced_seq = v.last_seq, cost_due = r.model_turns <> v.turns
FROM json_to_recordset($2::text::json) AS v(run_id text, cost float8, last_seq int, turns int)
WHERE r.run_id = v.run_id AND (r.cost_table IS DISTINCT FROM $1::text OR r.priced_seq <= v.last_seq)`;

const RESET_SQL = `UPDATE runs SET cost_due = true WHERE NOT cost_due AND cost_table IS DISTINCT FROM $1::text`;

interface DueRow {
  run_id: string;
  model_turns: number;
  base: number | null;
  last_seq: number;
  usage: string | null;
}

function usageOf(text: string | null): ModelUsage[] {
  const rows = text ? (JSON.parse(text) as Array<[string | null, number | string, number | string, number | string]>) : [];
  return rows.map(([model, turns, inputTokens, outputTokens]) => ({ model, turns: Number(turns), inputTokens: Number(inputTokens), outputTokens: Number(outputTokens) }));
}

/** Prices the due runs (see the header); `reset` runs the new-version sweep first. */
export async function priceDueRuns(client: SqlClient, pricing: RunPricing, options: PriceRunsOptions, reset: boolean): Promise<{ priced: number; more: boolean }> {
  if (reset) await client.query(RESET_SQL, [pricing.version]);
  const limit = options.limit ?? DEFAULT_LIMIT;
  const ids = options.runIds === undefined ? null : JSON.stringify(options.runIds);
  const rows = await client.query<DueRow>(DUE_SQL, [pricing.version, limit + 1, ids]);
  const batch = rows.slice(0, limit).map((row) => {
    const added = pricing.cost(usageOf(row.usage));
    const base = row.base === null ? null : Number(row.base);
    return { run_id: row.run_id, cost: base === null || added === null ? null : base + added, last_seq: Number(row.last_seq), turns: Number(row.model_turns) };
  });
  if (batch.length > 0) await client.query(WRITE_SQL, [pricing.version, JSON.stringify(batch)]);
  return { priced: batch.length, more: rows.length > limit };
}

/** The cost sort's two ranges after `cursor`, each a condition and an order (see the header). */
export function costRanges(order: SortOrder, cursor: string | undefined): Array<{ where: SQL; orderBy: SQL[] }> {
  const up = order === "asc";
  const direction = up ? sql`ASC` : sql`DESC`;
  const position = cursor === undefined ? undefined : decodeCostCursor(cursor, order);
  const byId = (id: string) => (up ? sql`${runs.runId} > ${id}::text` : sql`${runs.runId} < ${id}::text`);
  // Ordered by (cost, id) in both ranges, all NULL in this one, so that it is runs_cost_idx's order too.
  const orderBy = [sql`${runs.costUsd} ${direction}`, sql`${runs.runId} ${direction}`];
  const unknown = { where: sql`${runs.costUsd} IS NULL`, orderBy };
  if (position && position.costUsd === null) return [{ ...unknown, where: sql`${unknown.where} AND ${byId(position.runId)}` }];
  let where = sql`${runs.costUsd} IS NOT NULL`;
  if (position) {
    const pair = sql`(${runs.costUsd}, ${runs.runId})`;
    const at = sql`(${position.costUsd}::float8, ${position.runId}::text)`;
    where = sql`${where} AND ${pair} ${up ? sql`>` : sql`<`} ${at}`;
  }
  return [{ where, orderBy }, unknown];
}
