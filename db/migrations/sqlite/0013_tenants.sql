CREATE TABLE `user_tenants` (
	`user_id` text NOT NULL,
	`tenant` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	PRIMARY KEY(`user_id`, `tenant`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `audit_events` ADD `tenant` text;--> statement-breakpoint
CREATE INDEX `audit_tenant_at_idx` ON `audit_events` (`tenant`,`at`);--> statement-breakpoint
ALTER TABLE `access_tokens` ADD `tenants` text;