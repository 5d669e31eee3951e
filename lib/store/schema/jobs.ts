/** Background jobs of the inspector (replays started from the UI): they survive a server restart as "interrupted". */
import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const jobs = pgTable(
  "jobs",
  {
    jobId: text("job_id").primaryKey(),
    kind: text("kind").notNull(),
    status: text("status").notNull().default("queued"),
    input: jsonb("input").notNull(),
    output: jsonb("output"),
    error: text("error"),
    /** The runner (process) that accepted the job and renews heartbeat_at while it lives. */
    owner: text("owner").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true, precision: 3 }),
    finishedAt: timestamp("finished_at", { withTimezone: true, precision: 3 }),
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  // Finding jobs whose owner stopped: unfinished ones by heartbeat.
  (table) => [
    index("jobs_unfinished_idx")
      .on(table.heartbeatAt)
      .where(sql`${table.status} in ('queued', 'running')`),
  ],
);
