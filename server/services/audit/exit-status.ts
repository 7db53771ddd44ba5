// How a script run ended, as the audit dashboard groups script runs: "timeout", "refused" (the sandbox would not run
// it), "exit N" or "unknown". Computed once when the row is written and stored in audit_events.exit_status (null for
// every other event type), so the dashboard groups a week of runs from an index instead of parsing each row's details
// (issue #38). It is derived from the row's type, outcome and stored details, which the hash covers; the column itself
// is not hashed (hash.ts), so rows written before it existed still verify. The migration that added the column
// computes the same value in SQL for the rows already stored (db/migrations/*/0017_audit_exit_status.sql).

/** Exit codes beyond nine digits are read as unknown: PostgreSQL's backfill reads the code as a 32-bit integer. */
const MAX_EXIT_CODE = 999_999_999;

/** The details as stored (JSON text, or null), read as an object; anything else (not JSON, an array, a string) is none. */
function fieldsOf(details: string | null): Record<string, unknown> | null {
  if (!details) return null;
  try {
    const v: unknown = JSON.parse(details);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The exit status of a stored row: its type, outcome and details text as written. Null when it is no script run. */
export function exitStatusOf(row: { type: string; outcome: string | null; details: string | null }): string | null {
  if (row.type !== "script_executed") return null;
  const d = fieldsOf(row.details);
  if (d?.timedOut === true) return "timeout";
  if (row.outcome === "refused") return "refused";
  const code = d?.exitCode;
  if (typeof code === "number" && Number.isInteger(code) && Math.abs(code) <= MAX_EXIT_CODE) return `exit ${code}`;
  return "unknown";
}
