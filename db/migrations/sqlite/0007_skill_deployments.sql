CREATE TABLE `skill_deployments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_id` text NOT NULL,
	`user_id` text,
	`host` text NOT NULL,
	`agent` text NOT NULL,
	`scope` text NOT NULL,
	`name` text NOT NULL,
	`digest` text NOT NULL,
	`first_seen_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`last_seen_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`token_id`) REFERENCES `access_tokens`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `skill_deployments_place_idx` ON `skill_deployments` (`token_id`,`host`,`agent`,`scope`,`name`);--> statement-breakpoint
CREATE INDEX `skill_deployments_name_idx` ON `skill_deployments` (`name`);