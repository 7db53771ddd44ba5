CREATE TABLE `eval_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`skill_key` text NOT NULL,
	`skill_name` text NOT NULL,
	`layer` text NOT NULL,
	`skill_digest` text NOT NULL,
	`set_digest` text NOT NULL,
	`provider` text NOT NULL,
	`model` text NOT NULL,
	`mode` text NOT NULL,
	`runs` integer NOT NULL,
	`threshold` real NOT NULL,
	`status` text NOT NULL,
	`cases` integer NOT NULL,
	`results` text NOT NULL,
	`summary` text,
	`f1` real,
	`error` text,
	`user_id` text NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer
);
--> statement-breakpoint
CREATE INDEX `eval_runs_skill_idx` ON `eval_runs` (`skill_key`,`id`);