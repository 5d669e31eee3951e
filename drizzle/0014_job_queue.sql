ALTER TABLE "jobs" ALTER COLUMN "owner" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "max_attempts" integer DEFAULT 3 NOT NULL;
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "run_after" timestamp (3) with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "run_id" text;
--> statement-breakpoint
CREATE INDEX "jobs_queue_idx" ON "jobs" USING btree ("created_at") WHERE "jobs"."status" = 'queued';
--> statement-breakpoint
CREATE TABLE "workers" (
	"worker_id" text PRIMARY KEY NOT NULL,
	"role" text NOT NULL,
	"host" text NOT NULL,
	"pid" integer NOT NULL,
	"kinds" jsonb NOT NULL,
	"concurrency" integer NOT NULL,
	"started_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
