ALTER TABLE `servers` ADD `min_account_age_days` integer;--> statement-breakpoint
ALTER TABLE `servers` ADD `target_language` text;--> statement-breakpoint
ALTER TABLE `users` ADD `locale` text;