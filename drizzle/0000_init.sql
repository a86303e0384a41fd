CREATE TABLE `hourly_rewards` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`last_claim_date` integer DEFAULT 0 NOT NULL,
	`last_bonus_claim_date` integer,
	`last_daily_claim_date` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `hourly_rewards_user_id_unique` ON `hourly_rewards` (`user_id`);--> statement-breakpoint
CREATE TABLE `payments` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`pack_id` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`coins` integer NOT NULL,
	`status` text NOT NULL,
	`fulfilled_at` integer,
	`reversed_coins` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `payments_user_idx` ON `payments` (`user_id`);--> statement-breakpoint
CREATE TABLE `server_joins` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`server_id` text NOT NULL,
	`joined_at` integer NOT NULL,
	`verified` integer DEFAULT false NOT NULL,
	`verified_at` integer,
	`coins_awarded` integer DEFAULT false NOT NULL,
	`has_left` integer DEFAULT false NOT NULL,
	`left_at` integer,
	`left_reason` text,
	`penalized` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `server_joins_user_server_uq` ON `server_joins` (`user_id`,`server_id`);--> statement-breakpoint
CREATE INDEX `server_joins_server_idx` ON `server_joins` (`server_id`);--> statement-breakpoint
CREATE TABLE `servers` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`name` text NOT NULL,
	`invite_link` text NOT NULL,
	`invite_code` text,
	`server_id` text,
	`server_icon` text,
	`coin_reward` integer DEFAULT 50 NOT NULL,
	`members_remaining` integer DEFAULT 0 NOT NULL,
	`initial_member_slots` integer DEFAULT 0 NOT NULL,
	`is_featured` integer DEFAULT false NOT NULL,
	`featured_at` integer,
	`completion_notification_sent` integer DEFAULT false NOT NULL,
	`invite_valid` integer DEFAULT true NOT NULL,
	`canceled_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "servers_slots_non_negative" CHECK("servers"."members_remaining" >= 0)
);
--> statement-breakpoint
CREATE INDEX `servers_active_idx` ON `servers` (`members_remaining`,`canceled_at`);--> statement-breakpoint
CREATE INDEX `servers_owner_idx` ON `servers` (`owner_id`);--> statement-breakpoint
CREATE INDEX `servers_guild_idx` ON `servers` (`server_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`sid` text PRIMARY KEY NOT NULL,
	`sess` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sessions_expires_idx` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `social_completions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`task_id` text NOT NULL,
	`completed_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`task_id`) REFERENCES `social_tasks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `social_completions_user_task_uq` ON `social_completions` (`user_id`,`task_id`);--> statement-breakpoint
CREATE TABLE `social_task_starts` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`task_id` text NOT NULL,
	`started_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`task_id`) REFERENCES `social_tasks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `social_task_starts_user_task_uq` ON `social_task_starts` (`user_id`,`task_id`);--> statement-breakpoint
CREATE TABLE `social_tasks` (
	`id` text PRIMARY KEY NOT NULL,
	`platform` text NOT NULL,
	`title` text NOT NULL,
	`url` text NOT NULL,
	`coins` integer DEFAULT 200 NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `transactions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`amount` integer NOT NULL,
	`type` text NOT NULL,
	`description` text,
	`idempotency_key` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `transactions_idempotency_key_unique` ON `transactions` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `transactions_user_created_idx` ON `transactions` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`discord_id` text NOT NULL,
	`discord_username` text NOT NULL,
	`discord_avatar` text,
	`email` text,
	`coins` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	CONSTRAINT "users_coins_range" CHECK("users"."coins" <= 9999999999 AND "users"."coins" >= -9999999999)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_discord_id_unique` ON `users` (`discord_id`);