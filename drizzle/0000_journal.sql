CREATE TABLE "records" (
	"run_id" text NOT NULL,
	"seq" integer NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"payload" json NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "records_run_id_seq_pk" PRIMARY KEY("run_id","seq"),
	CONSTRAINT "records_run_name_key" UNIQUE("run_id","name")
);
--> statement-breakpoint
CREATE TABLE "runs" (
	"run_id" text PRIMARY KEY NOT NULL,
	"agent" text,
	"parent_run_id" text,
	"status" text DEFAULT 'running' NOT NULL,
	"pause" jsonb,
	"error" text,
	"input_text" text,
	"record_count" integer DEFAULT 0 NOT NULL,
	"last_seq" integer DEFAULT -1 NOT NULL,
	"model_turns" integer DEFAULT 0 NOT NULL,
	"tool_calls" integer DEFAULT 0 NOT NULL,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE INDEX "runs_started_idx" ON "runs" USING btree ("started_at" DESC NULLS LAST,"run_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "runs_status_started_idx" ON "runs" USING btree ("status","started_at" DESC NULLS LAST,"run_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "runs_agent_started_idx" ON "runs" USING btree ("agent","started_at" DESC NULLS LAST,"run_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "runs_parent_idx" ON "runs" USING btree ("parent_run_id");--> statement-breakpoint
CREATE INDEX "runs_unfinished_idx" ON "runs" USING btree ("run_id") WHERE "runs"."status" <> 'complete';