CREATE TABLE `reminder_settings` (
	`user_id` text PRIMARY KEY NOT NULL,
	`hourly` integer DEFAULT false NOT NULL,
	`bonus` integer DEFAULT false NOT NULL,
	`daily` integer DEFAULT false NOT NULL,
	`stay` integer DEFAULT false NOT NULL,
	`campaign` integer DEFAULT false NOT NULL,
	`time_zone` text DEFAULT 'UTC' NOT NULL,
	`quiet_start` integer,
	`quiet_end` integer,
	`dm_blocked_at` integer,
	`last_dm_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `reminders_due` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`subject_id` text NOT NULL,
	`due_at` integer NOT NULL,
	`state` text DEFAULT 'pending' NOT NULL,
	`sent_at` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reminders_due_subject_uq` ON `reminders_due` (`user_id`,`kind`,`subject_id`);--> statement-breakpoint
CREATE INDEX `reminders_due_state_idx` ON `reminders_due` (`state`,`due_at`);