CREATE TABLE "session_events" (
	"session_id" text NOT NULL,
	"seq" integer NOT NULL,
	"id" text NOT NULL,
	"author" text NOT NULL,
	"invocation_id" text NOT NULL,
	"content" json,
	"state_delta" json NOT NULL,
	"temp_keys" json,
	"timestamp" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_events_session_id_seq_pk" PRIMARY KEY("session_id","seq"),
	CONSTRAINT "session_events_session_id_key" UNIQUE("session_id","id")
);
--> statement-breakpoint
CREATE TABLE "session_shared_changes" (
	"app" text NOT NULL,
	"user_id" text NOT NULL,
	"revision" integer NOT NULL,
	"session_id" text NOT NULL,
	"event_id" text NOT NULL,
	"delta" json NOT NULL,
	CONSTRAINT "session_shared_changes_app_user_id_revision_pk" PRIMARY KEY("app","user_id","revision")
);
--> statement-breakpoint
CREATE TABLE "session_shared_states" (
	"app" text NOT NULL,
	"user_id" text NOT NULL,
	"state" jsonb NOT NULL,
	"revision" integer NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_shared_states_app_user_id_pk" PRIMARY KEY("app","user_id")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"app" text NOT NULL,
	"user_id" text NOT NULL,
	"initial_state" json NOT NULL,
	"state" jsonb NOT NULL,
	"revision" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "session_events" ADD CONSTRAINT "session_events_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_app_user_idx" ON "sessions" USING btree ("app","user_id");