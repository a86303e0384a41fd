CREATE TABLE "member_guilds" (
	"user_id" text PRIMARY KEY NOT NULL,
	"guild_ids" text NOT NULL,
	"premium_type" integer,
	"fetched_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "member_guilds" ADD CONSTRAINT "member_guilds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;