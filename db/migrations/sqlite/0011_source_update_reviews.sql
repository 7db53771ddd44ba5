ALTER TABLE `approvals` ADD `source` text;--> statement-breakpoint
ALTER TABLE `approvals` ADD `from_commit` text;--> statement-breakpoint
ALTER TABLE `approvals` ADD `to_commit` text;