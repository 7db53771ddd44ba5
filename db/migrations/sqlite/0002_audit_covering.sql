DROP INDEX `audit_type_at_idx`;--> statement-breakpoint
DROP INDEX `audit_outcome_at_idx`;--> statement-breakpoint
CREATE INDEX `audit_type_at_idx` ON `audit_events` (`type`,`at`,`skill`);--> statement-breakpoint
CREATE INDEX `audit_outcome_at_idx` ON `audit_events` (`outcome`,`at`,`skill`,`tool`);