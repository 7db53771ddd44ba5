DROP INDEX "audit_type_at_idx";--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "exit_status" text;--> statement-breakpoint
-- Details as a JSON object, or null when they are not JSON (a bare cast would fail the migration on such a row) or not an object. A function of this session only, dropped below.
CREATE FUNCTION pg_temp.audit_details_object(t text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN CASE WHEN jsonb_typeof(t::jsonb) = 'object' THEN t::jsonb END;
EXCEPTION WHEN others THEN
  RETURN NULL;
END
$$;--> statement-breakpoint
-- The exit status of every script run already stored, as server/services/audit/exit-status.ts computes it for new rows: a timeout, a refusal, a whole exit code of up to nine digits, else unknown. Only details that name one of the two keys are parsed.
UPDATE "audit_events" SET "exit_status" = CASE
  WHEN (s.d -> 'timedOut') = 'true'::jsonb THEN 'timeout'
  WHEN "audit_events"."outcome" = 'refused' THEN 'refused'
  WHEN jsonb_typeof(s.d -> 'exitCode') = 'number' AND (s.d ->> 'exitCode') ~ '^-?[0-9]{1,9}$' THEN 'exit ' || ((s.d ->> 'exitCode')::integer)
  ELSE 'unknown' END
FROM (
  SELECT "id", CASE WHEN strpos("details", '"timedOut"') > 0 OR strpos("details", '"exitCode"') > 0 THEN pg_temp.audit_details_object("details") END AS d
  FROM "audit_events" WHERE "type" = 'script_executed'
) s
WHERE "audit_events"."id" = s."id";--> statement-breakpoint
DROP FUNCTION pg_temp.audit_details_object(text);--> statement-breakpoint
CREATE INDEX "audit_type_at_idx" ON "audit_events" USING btree ("type","at","skill","exit_status","tenant");
