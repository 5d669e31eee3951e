CREATE TABLE "leases" (
	"run_id" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"acquired_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "timers" (
	"run_id" text NOT NULL,
	"name" text NOT NULL,
	"root_run_id" text NOT NULL,
	"wake_at" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "timers_run_id_name_pk" PRIMARY KEY("run_id","name")
);
--> statement-breakpoint
CREATE INDEX "timers_wake_idx" ON "timers" USING btree ("wake_at");