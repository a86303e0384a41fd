CREATE TABLE `oauth_tokens` (
	`user_id` text PRIMARY KEY NOT NULL,
	`access_token_enc` text NOT NULL,
	`refresh_token_enc` text,
	`scope` text NOT NULL,
	`expires_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `user_addresses` (
	`user_id` text NOT NULL,
	`address_hash` text NOT NULL,
	`last_seen_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_addresses_user_hash_uq` ON `user_addresses` (`user_id`,`address_hash`);--> statement-breakpoint
CREATE INDEX `user_addresses_hash_idx` ON `user_addresses` (`address_hash`,`last_seen_at`);--> statement-breakpoint
CREATE TABLE `welcome_grants` (
	`discord_id` text PRIMARY KEY NOT NULL,
	`granted_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `server_joins` ADD `reward_cents` integer;--> statement-breakpoint
ALTER TABLE `server_joins` ADD `min_stay_ms` integer;--> statement-breakpoint
ALTER TABLE `server_joins` ADD `penalty_cents` integer;--> statement-breakpoint
ALTER TABLE `servers` ADD `invite_guild_id` text;--> statement-breakpoint
ALTER TABLE `servers` ADD `featured_remaining` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE `servers` SET `invite_guild_id` = `server_id` WHERE `invite_guild_id` IS NULL;--> statement-breakpoint
UPDATE `servers` SET `featured_remaining` = MIN(`members_remaining`, 100) WHERE `is_featured` = 1;--> statement-breakpoint
UPDATE `server_joins` SET
	`reward_cents` = CASE WHEN `coins_awarded` = 1 THEN (SELECT `coin_reward` FROM `servers` WHERE `servers`.`id` = `server_joins`.`server_id`) ELSE 0 END,
	`min_stay_ms` = CASE WHEN (SELECT `is_featured` FROM `servers` WHERE `servers`.`id` = `server_joins`.`server_id`) = 1 THEN 432000000 ELSE 172800000 END,
	`penalty_cents` = 200
	WHERE `verified` = 1 OR `coins_awarded` = 1;--> statement-breakpoint
INSERT OR IGNORE INTO `welcome_grants` (`discord_id`, `granted_at`) SELECT `discord_id`, `created_at` FROM `users`;
