CREATE TABLE `ops_heartbeat` (
	`id` integer PRIMARY KEY NOT NULL,
	`checked_at` integer NOT NULL
);
