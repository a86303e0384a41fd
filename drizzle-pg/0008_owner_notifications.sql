CREATE TABLE "campaign_notifications" (
	"campaign_id" text PRIMARY KEY NOT NULL,
	"discord_webhook" text,
	"endpoint_url" text,
	"endpoint_secret" text,
	"events" text DEFAULT '' NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"outbox_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"at" bigint NOT NULL,
	"status_code" integer,
	"latency_ms" integer NOT NULL,
	"outcome" text NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "notification_outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"target" text NOT NULL,
	"event_type" text NOT NULL,
	"payload" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint NOT NULL,
	"lease_until" bigint,
	"lease_token" text,
	"created_at" bigint NOT NULL,
	"finished_at" bigint
);
--> statement-breakpoint
ALTER TABLE "campaign_notifications" ADD CONSTRAINT "campaign_notifications_campaign_id_servers_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."servers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_attempts" ADD CONSTRAINT "notification_attempts_outbox_id_notification_outbox_id_fk" FOREIGN KEY ("outbox_id") REFERENCES "public"."notification_outbox"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_outbox" ADD CONSTRAINT "notification_outbox_campaign_id_servers_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."servers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_attempts_campaign_idx" ON "notification_attempts" USING btree ("campaign_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "notification_outbox_event_target_uq" ON "notification_outbox" USING btree ("event_id","target");--> statement-breakpoint
CREATE INDEX "notification_outbox_due_idx" ON "notification_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "notification_outbox_campaign_idx" ON "notification_outbox" USING btree ("campaign_id","created_at");