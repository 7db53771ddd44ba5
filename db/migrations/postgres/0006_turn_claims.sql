CREATE TABLE "turn_claims" (
	"session_id" text PRIMARY KEY NOT NULL,
	"claim" text NOT NULL,
	"turn" bigint,
	"mode" text NOT NULL,
	"server" text NOT NULL,
	"started_at" bigint NOT NULL,
	"lease_until" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "turn_claims" ADD CONSTRAINT "turn_claims_session_id_playground_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."playground_sessions"("id") ON DELETE cascade ON UPDATE no action;