CREATE TABLE "otel_traces" (
	"trace_id" text PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"run_ids" json NOT NULL,
	"spans" json NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
