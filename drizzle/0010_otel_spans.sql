CREATE TABLE "otel_traces" (
	"trace_id" text PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"run_ids" json NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "otel_spans" (
	"trace_id" text NOT NULL,
	"span_id" text NOT NULL,
	"parent_span_id" text,
	"start_ns" text NOT NULL,
	"run_id" text,
	"note" json,
	"data" json,
	CONSTRAINT "otel_spans_trace_id_span_id_pk" PRIMARY KEY("trace_id","span_id")
);
