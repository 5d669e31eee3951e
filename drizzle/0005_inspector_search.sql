-- Indexed search of the runs list (run ids and input text, case-insensitive substring, ILIKE '%…%').
-- Trigram GIN indexes serve patterns of three or more characters; pg_trgm ships with PostgreSQL
-- (a trusted extension since 13) and PGlite loads it from its contrib folder (lib/store/embedded.ts).
-- Custom SQL: drizzle-kit cannot declare an extension, so these indexes are not in schema/journal.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "runs_run_id_trgm_idx" ON "runs" USING gin ("run_id" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "runs_input_text_trgm_idx" ON "runs" USING gin ("input_text" gin_trgm_ops);
