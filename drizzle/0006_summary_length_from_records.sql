ALTER TABLE "runs" DROP COLUMN "record_count";--> statement-breakpoint
ALTER TABLE "runs" DROP COLUMN "last_seq";