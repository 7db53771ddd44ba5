CREATE TABLE `skill_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`layer` text NOT NULL,
	`owner_id` text,
	`plugin` text,
	`skill` text NOT NULL,
	`path` text NOT NULL,
	`action` text NOT NULL,
	`content` text,
	`snapshot` text,
	`digest` text,
	`author_id` text NOT NULL,
	`author_email` text NOT NULL,
	`message` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `skill_versions_skill_idx` ON `skill_versions` (`layer`,`owner_id`,`plugin`,`skill`,`created_at`);--> statement-breakpoint
CREATE TABLE `approvals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`layer` text NOT NULL,
	`owner_id` text,
	`plugin` text,
	`skill` text NOT NULL,
	`digest` text NOT NULL,
	`status` text NOT NULL,
	`requested_by` text,
	`requested_at` integer NOT NULL,
	`decided_by` text,
	`decided_at` integer,
	`comment` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `approvals_skill_idx` ON `approvals` (`layer`,`skill`,`digest`);--> statement-breakpoint
CREATE INDEX `approvals_status_idx` ON `approvals` (`status`);--> statement-breakpoint
CREATE TABLE `policy_settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_by` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `playground_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`session_id` text NOT NULL,
	`turn` integer NOT NULL,
	`role` text NOT NULL,
	`content` text NOT NULL,
	`events` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `playground_sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `playground_messages_session_idx` ON `playground_messages` (`session_id`,`id`);--> statement-breakpoint
CREATE TABLE `playground_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`title` text NOT NULL,
	`provider` text NOT NULL,
	`model` text NOT NULL,
	`mode` text NOT NULL,
	`environment` text,
	`agent` text,
	`tenant` text,
	`skills` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `playground_sessions_user_idx` ON `playground_sessions` (`user_id`,`updated_at`);