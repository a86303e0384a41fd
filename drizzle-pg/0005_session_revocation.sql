ALTER TABLE "payments" ADD COLUMN "dispute_at" bigint;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sessions_valid_after" bigint;--> statement-breakpoint
UPDATE "users" SET "email" = NULL;