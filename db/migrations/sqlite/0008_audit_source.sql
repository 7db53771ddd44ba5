ALTER TABLE `audit_events` ADD `source_agent` text;--> statement-breakpoint
ALTER TABLE `audit_events` ADD `source_version` text;--> statement-breakpoint
ALTER TABLE `audit_events` ADD `source_host` text;--> statement-breakpoint
ALTER TABLE `audit_events` ADD `source_user` text;--> statement-breakpoint
CREATE INDEX `audit_source_at_idx` ON `audit_events` (`source_agent`,`at`);