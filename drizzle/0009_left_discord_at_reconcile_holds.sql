CREATE TABLE `reconcile_holds` (
	`guild_id` text NOT NULL,
	`discord_user_id` text NOT NULL,
	`first_absent_at` integer NOT NULL,
	`last_absent_at` integer NOT NULL,
	`holds` integer DEFAULT 1 NOT NULL,
	`resolution` text,
	`resolved_at` integer,
	`reason` text,
	PRIMARY KEY(`guild_id`, `discord_user_id`)
);
--> statement-breakpoint
ALTER TABLE `server_joins` ADD `left_discord_at` integer;