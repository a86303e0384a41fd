CREATE TABLE `member_guilds` (
	`user_id` text PRIMARY KEY NOT NULL,
	`guild_ids` text NOT NULL,
	`premium_type` integer,
	`fetched_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
