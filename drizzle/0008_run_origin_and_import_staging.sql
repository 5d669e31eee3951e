CREATE TABLE "import_staging" (
	"import_id" text NOT NULL,
	"run_id" text NOT NULL,
	"seq" integer NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"payload" json NOT NULL,
	"staged_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_staging_import_id_run_id_seq_pk" PRIMARY KEY("import_id","run_id","seq")
);
--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "origin" text DEFAULT 'agent' NOT NULL;