ALTER TABLE `server_joins` ADD `discord_joined_at` integer;--> statement-breakpoint
ALTER TABLE `servers` ADD `bot_removed_at` integer;--> statement-breakpoint
ALTER TABLE `servers` ADD `completion_dm_attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `servers` ADD `completion_dm_retry_at` integer;--> statement-breakpoint
ALTER TABLE `servers` ADD `owner_unreachable_at` integer;