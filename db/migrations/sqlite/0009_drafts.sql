CREATE TABLE `editor_drafts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`skill_key` text NOT NULL,
	`path` text NOT NULL,
	`text` text NOT NULL,
	`base_digest` text,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `editor_drafts_user_file_idx` ON `editor_drafts` (`user_id`,`skill_key`,`path`);