CREATE TABLE "hourly_rewards" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"last_claim_date" bigint DEFAULT 0 NOT NULL,
	"last_bonus_claim_date" bigint,
	"last_daily_claim_date" bigint,
	CONSTRAINT "hourly_rewards_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"job" text NOT NULL,
	"period" bigint NOT NULL,
	"runner" text NOT NULL,
	"started_at" bigint NOT NULL,
	"finished_at" bigint,
	"outcome" text,
	CONSTRAINT "job_runs_job_period_pk" PRIMARY KEY("job","period")
);
--> statement-breakpoint
CREATE TABLE "oauth_tokens" (
	"user_id" text PRIMARY KEY NOT NULL,
	"access_token_enc" text NOT NULL,
	"refresh_token_enc" text,
	"scope" text NOT NULL,
	"expires_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops_heartbeat" (
	"id" integer PRIMARY KEY NOT NULL,
	"checked_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"status" text NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"pack_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"coins" bigint NOT NULL,
	"status" text NOT NULL,
	"fulfilled_at" bigint,
	"reversed_coins" bigint DEFAULT 0 NOT NULL,
	"charge_refunded_cents" bigint DEFAULT 0 NOT NULL,
	"dispute_id" text,
	"dispute_cents" bigint DEFAULT 0 NOT NULL,
	"dispute_status" text,
	"adjustments" integer DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_joins" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"server_id" text NOT NULL,
	"joined_at" bigint NOT NULL,
	"verified" boolean DEFAULT false NOT NULL,
	"verified_at" bigint,
	"coins_awarded" boolean DEFAULT false NOT NULL,
	"has_left" boolean DEFAULT false NOT NULL,
	"left_at" bigint,
	"left_reason" text,
	"discord_joined_at" bigint,
	"penalized" boolean DEFAULT false NOT NULL,
	"reward_cents" bigint,
	"min_stay_ms" bigint,
	"penalty_cents" bigint,
	"same_address" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "servers" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"invite_link" text NOT NULL,
	"invite_code" text,
	"kind" text DEFAULT 'regular' NOT NULL,
	"server_id" text,
	"invite_guild_id" text,
	"server_icon" text,
	"coin_reward" bigint DEFAULT 50 NOT NULL,
	"members_remaining" integer DEFAULT 0 NOT NULL,
	"initial_member_slots" integer DEFAULT 0 NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"featured_remaining" integer DEFAULT 0 NOT NULL,
	"featured_at" bigint,
	"completion_notification_sent" boolean DEFAULT false NOT NULL,
	"invite_valid" boolean DEFAULT true NOT NULL,
	"bot_removed_at" bigint,
	"completion_dm_attempts" integer DEFAULT 0 NOT NULL,
	"completion_dm_retry_at" bigint,
	"owner_unreachable_at" bigint,
	"canceled_at" bigint,
	"created_at" bigint NOT NULL,
	CONSTRAINT "servers_slots_non_negative" CHECK ("servers"."members_remaining" >= 0),
	CONSTRAINT "servers_kind_consistent" CHECK ("servers"."kind" IN ('regular', 'featured', 'nobot') AND ("servers"."kind" = 'nobot') = ("servers"."server_id" IS NULL) AND ("servers"."kind" = 'featured') = "servers"."is_featured")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"sid" text PRIMARY KEY NOT NULL,
	"sess" text NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "social_completions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"task_id" text NOT NULL,
	"completed_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "social_task_starts" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"task_id" text NOT NULL,
	"started_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "social_tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"platform" text NOT NULL,
	"title" text NOT NULL,
	"url" text NOT NULL,
	"coins" bigint DEFAULT 200 NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"type" text NOT NULL,
	"description" text,
	"idempotency_key" text,
	"created_at" bigint NOT NULL,
	CONSTRAINT "transactions_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "user_addresses" (
	"user_id" text NOT NULL,
	"address_hash" text NOT NULL,
	"last_seen_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"discord_id" text NOT NULL,
	"discord_username" text NOT NULL,
	"discord_avatar" text,
	"email" text,
	"coins" bigint DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "users_discord_id_unique" UNIQUE("discord_id"),
	CONSTRAINT "users_coins_range" CHECK ("users"."coins" <= 9999999999 AND "users"."coins" >= -9999999999)
);
--> statement-breakpoint
CREATE TABLE "welcome_grants" (
	"discord_id" text PRIMARY KEY NOT NULL,
	"granted_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hourly_rewards" ADD CONSTRAINT "hourly_rewards_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_tokens" ADD CONSTRAINT "oauth_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "server_joins" ADD CONSTRAINT "server_joins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "server_joins" ADD CONSTRAINT "server_joins_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "servers" ADD CONSTRAINT "servers_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_completions" ADD CONSTRAINT "social_completions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_completions" ADD CONSTRAINT "social_completions_task_id_social_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."social_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_task_starts" ADD CONSTRAINT "social_task_starts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_task_starts" ADD CONSTRAINT "social_task_starts_task_id_social_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."social_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_addresses" ADD CONSTRAINT "user_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_refunds_payment_idx" ON "payment_refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "payments_user_idx" ON "payments" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "payments_open_dispute_idx" ON "payments" USING btree ("user_id") WHERE "payments"."dispute_status" = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX "server_joins_user_server_uq" ON "server_joins" USING btree ("user_id","server_id");--> statement-breakpoint
CREATE INDEX "server_joins_server_idx" ON "server_joins" USING btree ("server_id");--> statement-breakpoint
CREATE INDEX "servers_active_idx" ON "servers" USING btree ("members_remaining","canceled_at");--> statement-breakpoint
CREATE INDEX "servers_owner_idx" ON "servers" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "servers_guild_idx" ON "servers" USING btree ("server_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "social_completions_user_task_uq" ON "social_completions" USING btree ("user_id","task_id");--> statement-breakpoint
CREATE UNIQUE INDEX "social_task_starts_user_task_uq" ON "social_task_starts" USING btree ("user_id","task_id");--> statement-breakpoint
CREATE INDEX "transactions_user_created_idx" ON "transactions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "user_addresses_user_hash_uq" ON "user_addresses" USING btree ("user_id","address_hash");--> statement-breakpoint
CREATE INDEX "user_addresses_hash_idx" ON "user_addresses" USING btree ("address_hash","last_seen_at");