/**
 * The shared job queue (replays, resumes, recovery passes, and any kind a JobRunner registers)
 * and the workers that take jobs from it. Any process claims a queued job with
 * `FOR UPDATE SKIP LOCKED` (lib/jobs/queue.ts); a running job whose owner stops renewing
 * heartbeat_at is queued again (with backoff, up to max_attempts).
 */
import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const jobs = pgTable(
  "jobs",
  {
    jobId: text("job_id").primaryKey(),
    kind: text("kind").notNull(),
    status: text("status").notNull().default("queued"),
    input: jsonb("input").notNull(),
    output: jsonb("output"),
    error: text("error"),
    /** The runner (worker id) running the job now; null while it is queued. */
    owner: text("owner"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true, precision: 3 }),
    finishedAt: timestamp("finished_at", { withTimezone: true, precision: 3 }),
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** Claims so far (a claim counts whether the attempt ends or its runner dies). */
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(3),
    /** Not claimed before this time: the backoff after a runner died. */
    runAfter: timestamp("run_after", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** The run the job drives (a replay's new run, a resumed run): recovery leaves it to the job. */
    runId: text("run_id"),
  },
  (table) => [
    // Finding jobs whose owner stopped: unfinished ones by heartbeat. It also serves the runs
    // unfinished jobs drive and a worker's jobs: every index more is written on each claim.
    index("jobs_unfinished_idx")
      .on(table.heartbeatAt)
      .where(sql`${table.status} in ('queued', 'running')`),
    // The claim: the oldest queued jobs (a job queued again keeps its place), skipping those in backoff.
    index("jobs_queue_idx")
      .on(table.createdAt)
      .where(sql`${table.status} = 'queued'`),
  ],
);

/** Processes that run jobs (`backtrack worker`, an inspector's in-process worker), renewed while they live. */
export const workers = pgTable("workers", {
  workerId: text("worker_id").primaryKey(),
  /** "worker" (backtrack worker) or "inspector" (the in-process worker of backtrack start). */
  role: text("role").notNull(),
  host: text("host").notNull(),
  pid: integer("pid").notNull(),
  kinds: jsonb("kinds").notNull(),
  concurrency: integer("concurrency").notNull(),
  startedAt: timestamp("started_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  heartbeatAt: timestamp("heartbeat_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});
