CREATE TABLE "reminder_settings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"hourly" boolean DEFAULT false NOT NULL,
	"bonus" boolean DEFAULT false NOT NULL,
	"daily" boolean DEFAULT false NOT NULL,
	"stay" boolean DEFAULT false NOT NULL,
	"campaign" boolean DEFAULT false NOT NULL,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"quiet_start" integer,
	"quiet_end" integer,
	"dm_blocked_at" bigint,
	"last_dm_at" bigint,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reminders_due" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"subject_id" text NOT NULL,
	"due_at" bigint NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"sent_at" bigint,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reminder_settings" ADD CONSTRAINT "reminder_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminders_due" ADD CONSTRAINT "reminders_due_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reminders_due_subject_uq" ON "reminders_due" USING btree ("user_id","kind","subject_id");--> statement-breakpoint
CREATE INDEX "reminders_due_state_idx" ON "reminders_due" USING btree ("state","due_at");