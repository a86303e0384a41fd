CREATE TABLE `campaign_notifications` (
	`campaign_id` text PRIMARY KEY NOT NULL,
	`discord_webhook` text,
	`endpoint_url` text,
	`endpoint_secret` text,
	`events` text DEFAULT '' NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `notification_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`outbox_id` text NOT NULL,
	`campaign_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`at` integer NOT NULL,
	`status_code` integer,
	`latency_ms` integer NOT NULL,
	`outcome` text NOT NULL,
	`error` text,
	FOREIGN KEY (`outbox_id`) REFERENCES `notification_outbox`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `notification_attempts_campaign_idx` ON `notification_attempts` (`campaign_id`,`at`);--> statement-breakpoint
CREATE TABLE `notification_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`campaign_id` text NOT NULL,
	`target` text NOT NULL,
	`event_type` text NOT NULL,
	`payload` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`lease_until` integer,
	`lease_token` text,
	`created_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`campaign_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notification_outbox_event_target_uq` ON `notification_outbox` (`event_id`,`target`);--> statement-breakpoint
CREATE INDEX `notification_outbox_due_idx` ON `notification_outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `notification_outbox_campaign_idx` ON `notification_outbox` (`campaign_id`,`created_at`);