CREATE TABLE "suite_pins" (
	"suite" text NOT NULL,
	"run_id" text NOT NULL,
	"pinned_by" text NOT NULL,
	"pinned_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"note" text,
	CONSTRAINT "suite_pins_suite_run_id_pk" PRIMARY KEY("suite","run_id")
);
--> statement-breakpoint
CREATE TABLE "suite_batches" (
	"batch_id" text PRIMARY KEY NOT NULL,
	"suite" text NOT NULL,
	"model" text NOT NULL,
	"strip_memory" boolean DEFAULT false NOT NULL,
	"scorer" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"total" integer NOT NULL,
	"error" text,
	"started_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "suite_batch_results" (
	"batch_id" text NOT NULL,
	"run_id" text NOT NULL,
	"position" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"replay_run_id" text,
	"divergent_at" integer,
	"divergence" text,
	"reason" text,
	"score" double precision,
	"finished_at" timestamp (3) with time zone,
	CONSTRAINT "suite_batch_results_batch_id_run_id_pk" PRIMARY KEY("batch_id","run_id")
);
--> statement-breakpoint
CREATE INDEX "suite_batches_suite_started_idx" ON "suite_batches" USING btree ("suite","started_at" DESC NULLS LAST,"batch_id" DESC NULLS LAST);
