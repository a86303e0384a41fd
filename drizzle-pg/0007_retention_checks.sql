CREATE TABLE "retention_checks" (
	"join_id" text NOT NULL,
	"milestone_days" integer NOT NULL,
	"present" boolean NOT NULL,
	"checked_at" bigint NOT NULL,
	CONSTRAINT "retention_checks_join_id_milestone_days_pk" PRIMARY KEY("join_id","milestone_days")
);
--> statement-breakpoint
ALTER TABLE "retention_checks" ADD CONSTRAINT "retention_checks_join_id_server_joins_id_fk" FOREIGN KEY ("join_id") REFERENCES "public"."server_joins"("id") ON DELETE cascade ON UPDATE no action;