CREATE TABLE `payment_refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`payment_id` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`status` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `payment_refunds_payment_idx` ON `payment_refunds` (`payment_id`);--> statement-breakpoint
ALTER TABLE `payments` ADD `charge_refunded_cents` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `payments` ADD `dispute_id` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `dispute_cents` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `payments` ADD `dispute_status` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `adjustments` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `payments_open_dispute_idx` ON `payments` (`user_id`) WHERE "payments"."dispute_status" = 'open';