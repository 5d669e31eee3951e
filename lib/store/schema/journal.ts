/** The journal's tables: runs (one summary row per run) and records. */
import { sql } from "drizzle-orm";
import { boolean, doublePrecision, index, integer, json, jsonb, pgTable, primaryKey, text, timestamp, unique } from "drizzle-orm/pg-core";

/**
 * One row per run, so that lists never scan records: what lists filter, sort and show (see
 * lib/journal/summary.ts). An append writes it only when it changes it (model turns, tool calls,
 * tokens, the header's fields, completion, a status change) or when updated_at is over a second
 * old: a run's length (last seq, record count) is read from the records' primary key instead, so
 * that most appends write one row, not two.
 */
export const runs = pgTable(
  "runs",
  {
    runId: text("run_id").primaryKey(),
    agent: text("agent"),
    parentRunId: text("parent_run_id"),
    status: text("status").notNull().default("running"),
    pause: jsonb("pause"),
    error: text("error"),
    inputText: text("input_text"),
    modelTurns: integer("model_turns").notNull().default(0),
    toolCalls: integer("tool_calls").notNull().default(0),
    inputTokens: integer("input_tokens").notNull().default(0),
    outputTokens: integer("output_tokens").notNull().default(0),
    startedAt: timestamp("started_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true, precision: 3 }),
    /** Where the run came from (RunOrigin): recovery drives only runs an agent wrote. */
    origin: text("origin").notNull().default("agent"),
    /** A fork's source run and the seq it was forked at (lib/fork): its records before it are copies. */
    forkedFrom: text("forked_from"),
    forkedAt: integer("forked_at"),
    /** The run's cost as priced in the process (drizzle/0017, lib/store/cost-sql.ts): the model
     * records up to priced_seq under the table cost_table; NULL when a turn has no price. */
    costUsd: doublePrecision("cost_usd"),
    costTable: text("cost_table"),
    pricedSeq: integer("priced_seq").notNull().default(-1),
    /** A model turn came after the price, or the run was never priced: set by every writer. */
    costDue: boolean("cost_due").notNull().default(true),
  },
  (table) => [
    // Keyset pagination of the runs list, newest first, optionally narrowed by status or agent.
    index("runs_started_idx").on(table.startedAt.desc(), table.runId.desc()),
    index("runs_status_started_idx").on(table.status, table.startedAt.desc(), table.runId.desc()),
    index("runs_agent_started_idx").on(table.agent, table.startedAt.desc(), table.runId.desc()),
    index("runs_parent_idx").on(table.parentRunId),
    // Sorting by cost (unknown, NULL, last) and finding the runs to price.
    index("runs_cost_idx").on(table.costUsd, table.runId),
    index("runs_cost_due_idx")
      .on(table.runId)
      .where(sql`${table.costDue}`),
    // A run's forks (the runs list's ?forkOf=), newest first.
    index("runs_forked_from_idx")
      .on(table.forkedFrom, table.startedAt.desc(), table.runId.desc())
      .where(sql`${table.forkedFrom} IS NOT NULL`),
    // Search by run id and input text uses trigram GIN indexes: drizzle/0001_inspector_search.sql.
    // Recovery enumerates unfinished runs with one query over this small partial index.
    index("runs_unfinished_idx")
      .on(table.runId)
      .where(sql`${table.status} <> 'complete'`),
  ],
);

/**
 * The journal. `seq` is dense per run from 0; `name` is unique per run. Payloads are `json`, not
 * `jsonb`, so that a record reads back byte for byte as written (jsonb reorders keys).
 */
export const records = pgTable(
  "records",
  {
    runId: text("run_id").notNull(),
    seq: integer("seq").notNull(),
    name: text("name").notNull(),
    kind: text("kind").notNull(),
    payload: json("payload").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.runId, table.seq] }),
    unique("records_run_name_key").on(table.runId, table.name),
    // The run a fork was made from, per run:start header: prune keeps fork sources (lib/retention).
    index("records_forked_from_idx")
      .using("btree", sql`((${table.payload} -> 'forkedFrom') ->> 'runId')`)
      .where(sql`${table.name} = 'run:start'`),
  ],
);

/**
 * Records of imports in progress, staged under the import's id and moved into `records` by one
 * statement when the whole file has been read (lib/store/import-sql.ts): an import cut short
 * (a kill -9) leaves only rows here, which no reader sees and a later import sweeps away.
 */
export const importStaging = pgTable(
  "import_staging",
  {
    importId: text("import_id").notNull(),
    runId: text("run_id").notNull(),
    seq: integer("seq").notNull(),
    name: text("name").notNull(),
    kind: text("kind").notNull(),
    payload: json("payload").notNull(),
    stagedAt: timestamp("staged_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.importId, table.runId, table.seq] })],
);
