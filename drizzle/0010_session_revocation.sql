ALTER TABLE `payments` ADD `dispute_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `sessions_valid_after` integer;--> statement-breakpoint
UPDATE `users` SET `email` = NULL;