/**
 * Regression suites (lib/suites): pinned runs by suite, and each suite run (a batch) with one
 * result row per pinned run. A pin names a run by id only: deleting the run leaves the pin, and a
 * batch reports that run as an error, which is what a reviewer needs to see.
 */
import { boolean, doublePrecision, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

export const suitePins = pgTable(
  "suite_pins",
  {
    suite: text("suite").notNull(),
    runId: text("run_id").notNull(),
    pinnedBy: text("pinned_by").notNull(),
    pinnedAt: timestamp("pinned_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    note: text("note"),
  },
  (table) => [primaryKey({ columns: [table.suite, table.runId] })],
);

export const suiteBatches = pgTable(
  "suite_batches",
  {
    batchId: text("batch_id").primaryKey(),
    suite: text("suite").notNull(),
    model: text("model").notNull(),
    stripMemory: boolean("strip_memory").notNull().default(false),
    scorer: text("scorer").notNull(),
    /** running, done, or failed (the batch itself broke, not one of its runs). */
    status: text("status").notNull().default("running"),
    total: integer("total").notNull(),
    error: text("error"),
    startedAt: timestamp("started_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true, precision: 3 }),
  },
  (table) => [index("suite_batches_suite_started_idx").on(table.suite, table.startedAt.desc(), table.batchId.desc())],
);

export const suiteBatchResults = pgTable(
  "suite_batch_results",
  {
    batchId: text("batch_id").notNull(),
    runId: text("run_id").notNull(),
    /** The pin's place in the suite (pin order), so a batch lists its runs as the suite does. */
    position: integer("position").notNull(),
    /** pending, pass, changed, failed or error (lib/suites/types.ts). */
    status: text("status").notNull().default("pending"),
    replayRunId: text("replay_run_id"),
    divergentAt: integer("divergent_at"),
    /** The first divergence in words. */
    divergence: text("divergence"),
    reason: text("reason"),
    score: doublePrecision("score"),
    finishedAt: timestamp("finished_at", { withTimezone: true, precision: 3 }),
  },
  (table) => [primaryKey({ columns: [table.batchId, table.runId] })],
);
