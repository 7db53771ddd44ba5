CREATE TABLE "user_tenants" (
	"user_id" text NOT NULL,
	"tenant" text NOT NULL,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL,
	CONSTRAINT "user_tenants_user_id_tenant_pk" PRIMARY KEY("user_id","tenant")
);
--> statement-breakpoint
ALTER TABLE "access_tokens" ADD COLUMN "tenants" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "tenant" text;--> statement-breakpoint
ALTER TABLE "user_tenants" ADD CONSTRAINT "user_tenants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_tenant_at_idx" ON "audit_events" USING btree ("tenant","at");