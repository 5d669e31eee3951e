/** Crash recovery's tables: run leases and durable timers (lib/recovery). */
import { index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * One row per leased run. Acquiring is one atomic upsert that succeeds only when the row is
 * absent, expired or already the caller's; expiry uses the database clock, never a process's.
 */
export const leases = pgTable("leases", {
  runId: text("run_id").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }).notNull(),
  acquiredAt: timestamp("acquired_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/**
 * Durable wake-ups of sleeping runs (PostgresWaker). `name` is the sleep's record name in `runId`;
 * `root_run_id` is the run a waker drives (a sub-agent's sleep wakes its root).
 */
export const timers = pgTable(
  "timers",
  {
    runId: text("run_id").notNull(),
    name: text("name").notNull(),
    rootRunId: text("root_run_id").notNull(),
    wakeAt: timestamp("wake_at", { withTimezone: true, precision: 3 }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.runId, table.name] }),
    // Due timers are found with one range scan of this index.
    index("timers_wake_idx").on(table.wakeAt),
  ],
);
