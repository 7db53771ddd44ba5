ALTER TABLE "approvals" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "approvals" ADD COLUMN "from_commit" text;--> statement-breakpoint
ALTER TABLE "approvals" ADD COLUMN "to_commit" text;