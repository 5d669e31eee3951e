ALTER TABLE "runs" ADD COLUMN "forked_from" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "forked_at" integer;--> statement-breakpoint
CREATE INDEX "runs_forked_from_idx" ON "runs" USING btree ("forked_from","started_at" DESC NULLS LAST,"run_id" DESC NULLS LAST) WHERE "runs"."forked_from" IS NOT NULL;
