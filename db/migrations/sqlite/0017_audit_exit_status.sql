DROP INDEX `audit_type_at_idx`;--> statement-breakpoint
ALTER TABLE `audit_events` ADD `exit_status` text;--> statement-breakpoint
-- The exit status of every script run already stored, as server/services/audit/exit-status.ts computes it for new rows: a timeout, a refusal, a whole exit code of up to nine digits, else unknown. Details that are not valid JSON are read as none (json_type would fail the migration on them); CASE evaluates a branch only when its test holds.
UPDATE `audit_events` SET `exit_status` = CASE
  WHEN NOT coalesce(json_valid(`details`), 0) THEN CASE WHEN `outcome` = 'refused' THEN 'refused' ELSE 'unknown' END
  WHEN json_type(`details`, '$.timedOut') = 'true' THEN 'timeout'
  WHEN `outcome` = 'refused' THEN 'refused'
  WHEN json_type(`details`, '$.exitCode') = 'integer' THEN CASE WHEN json_extract(`details`, '$.exitCode') BETWEEN -999999999 AND 999999999 THEN 'exit ' || json_extract(`details`, '$.exitCode') ELSE 'unknown' END
  ELSE 'unknown' END
WHERE `type` = 'script_executed';--> statement-breakpoint
CREATE INDEX `audit_type_at_idx` ON `audit_events` (`type`,`at`,`skill`,`exit_status`,`tenant`);
