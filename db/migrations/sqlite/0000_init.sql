CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`role` text DEFAULT 'viewer' NOT NULL,
	`password_hash` text NOT NULL,
	`disabled` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE INDEX `users_role_idx` ON `users` (`role`);--> statement-breakpoint
CREATE TABLE `audit_archives` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`first_id` integer NOT NULL,
	`last_id` integer NOT NULL,
	`count` integer NOT NULL,
	`head_hash` text NOT NULL,
	`file` text NOT NULL,
	`archived_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `audit_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`type` text NOT NULL,
	`actor_id` text,
	`actor_email` text,
	`session_id` text,
	`skill` text,
	`layer` text,
	`digest` text,
	`tool` text,
	`model` text,
	`mode` text,
	`outcome` text,
	`duration_ms` integer,
	`details` text,
	`prev_hash` text NOT NULL,
	`hash` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_at_idx` ON `audit_events` (`at`);--> statement-breakpoint
CREATE INDEX `audit_type_at_idx` ON `audit_events` (`type`,`at`);--> statement-breakpoint
CREATE INDEX `audit_skill_at_idx` ON `audit_events` (`skill`,`at`);--> statement-breakpoint
CREATE INDEX `audit_actor_at_idx` ON `audit_events` (`actor_id`,`at`);--> statement-breakpoint
CREATE INDEX `audit_session_idx` ON `audit_events` (`session_id`,`at`);--> statement-breakpoint
CREATE INDEX `audit_outcome_at_idx` ON `audit_events` (`outcome`,`at`);