DROP INDEX `audit_at_idx`;--> statement-breakpoint
DROP INDEX `audit_outcome_at_idx`;--> statement-breakpoint
DROP INDEX `audit_source_at_idx`;--> statement-breakpoint
CREATE INDEX `audit_at_idx` ON `audit_events` (`at`,`source_agent`,`type`);--> statement-breakpoint
CREATE INDEX `audit_outcome_at_idx` ON `audit_events` (`outcome`,`at`,`skill`,`tool`,`type`);--> statement-breakpoint
CREATE INDEX `audit_source_at_idx` ON `audit_events` (`source_agent`,`at`,`type`);