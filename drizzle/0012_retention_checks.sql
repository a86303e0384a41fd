CREATE TABLE `retention_checks` (
	`join_id` text NOT NULL,
	`milestone_days` integer NOT NULL,
	`present` integer NOT NULL,
	`checked_at` integer NOT NULL,
	PRIMARY KEY(`join_id`, `milestone_days`),
	FOREIGN KEY (`join_id`) REFERENCES `server_joins`(`id`) ON UPDATE no action ON DELETE cascade
);
