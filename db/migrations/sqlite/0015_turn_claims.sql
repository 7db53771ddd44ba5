CREATE TABLE `turn_claims` (
	`session_id` text PRIMARY KEY NOT NULL,
	`claim` text NOT NULL,
	`turn` integer,
	`mode` text NOT NULL,
	`server` text NOT NULL,
	`started_at` integer NOT NULL,
	`lease_until` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `playground_sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
