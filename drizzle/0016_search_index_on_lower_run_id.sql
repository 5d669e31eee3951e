-- The run-id search index moves onto lower(run_id). pg_trgm's GIN operator class also serves
-- "=", and the planner took the index on the bare column for lookups of eight ids or more
-- (run_id = ANY(…), a suite's or a comparison's bulk read). Each such lookup then scanned the
-- index's pending list, which every run insert and non-HOT status change grows until a vacuum
-- or a 4 MB flush: one lookup went from 2 ms to 230 ms. An index on an expression cannot serve
-- equality on the column, so lookups by id are left to the primary key; the search, an ILIKE on
-- lower(run_id) (lib/store/postgres-store.ts), keeps its index.
DROP INDEX IF EXISTS "runs_run_id_trgm_idx";
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "runs_run_id_search_idx" ON "runs" USING gin (lower("run_id") gin_trgm_ops);
