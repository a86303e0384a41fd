CREATE TABLE "reconcile_holds" (
	"guild_id" text NOT NULL,
	"discord_user_id" text NOT NULL,
	"first_absent_at" bigint NOT NULL,
	"last_absent_at" bigint NOT NULL,
	"holds" integer DEFAULT 1 NOT NULL,
	"resolution" text,
	"resolved_at" bigint,
	"reason" text,
	CONSTRAINT "reconcile_holds_guild_id_discord_user_id_pk" PRIMARY KEY("guild_id","discord_user_id")
);
--> statement-breakpoint
ALTER TABLE "server_joins" ADD COLUMN "left_discord_at" bigint;