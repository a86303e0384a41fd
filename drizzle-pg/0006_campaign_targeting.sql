ALTER TABLE "servers" ADD COLUMN "min_account_age_days" integer;--> statement-breakpoint
ALTER TABLE "servers" ADD COLUMN "target_language" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "locale" text;