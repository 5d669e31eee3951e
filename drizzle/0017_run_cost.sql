-- The runs list's Cost column (issue 43). A run's cost depends on the price table, which lives
-- in the process (catalog + backtrack.config.ts), so it is priced there (lib/journal/pricing.ts
-- drives it) and kept here for sorting: cost_usd is what the model records up to priced_seq cost
-- under cost_table (NULL: some turn has no price); cost_due says a model turn came after it, or it
-- was never priced. Writers only set cost_due (an append of a model record; new rows start due),
-- so every writer (append, fork, import, OTLP) stays alike and no payload is priced in SQL.
ALTER TABLE "runs" ADD COLUMN IF NOT EXISTS "cost_usd" double precision;
--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN IF NOT EXISTS "cost_table" text;
--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN IF NOT EXISTS "priced_seq" integer DEFAULT -1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN IF NOT EXISTS "cost_due" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
-- Sorting by cost, both ways: priced runs in cost order, then the unknown ones (NULLs sort last
-- in this index), each an index range (lib/store/cost-sql.ts).
CREATE INDEX IF NOT EXISTS "runs_cost_idx" ON "runs" USING btree ("cost_usd","run_id");
--> statement-breakpoint
-- The runs to price: few once a database is priced (live runs), found without a scan.
CREATE INDEX IF NOT EXISTS "runs_cost_due_idx" ON "runs" USING btree ("run_id") WHERE "cost_due";
