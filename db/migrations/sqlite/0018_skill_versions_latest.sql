DROP INDEX `skill_versions_skill_idx`;--> statement-breakpoint
CREATE INDEX `skill_versions_skill_idx` ON `skill_versions` (`layer`,`owner_id`,`plugin`,`skill`,`created_at`,`id`);