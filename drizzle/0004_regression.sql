CREATE TABLE "memories" (
	"id" text PRIMARY KEY NOT NULL,
	"scope" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "memories_scope_created_idx" ON "memories" USING btree ("scope","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);