CREATE TABLE `stop_requests` (
	`kind` text NOT NULL,
	`target` text NOT NULL,
	`requested_by` text NOT NULL,
	`requested_at` integer NOT NULL,
	PRIMARY KEY(`kind`, `target`)
);
