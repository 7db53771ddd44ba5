// Every kind of audit event, defined once. Add a new kind here; the audit page's filters read this list.

export const AUDIT_EVENT_TYPES = [
  "skill_activated",
  "skill_deactivated",
  "tool_call",
  "tool_restriction_violated",
  "script_executed",
  "script_read_blocked",
  "hook_executed",
  "skill_saved",
  "skill_deleted",
  "skill_restored",
  "skill_deployed",
  "skill_imported",
  "skill_installed",
  "policy_changed",
  "approval_decided",
  "user_created",
  "user_updated",
  "login",
  "login_failed",
  "access_denied",
  "agent_run_started",
  "agent_run_finished",
  "eval_run",
  "doctor_report",
] as const;

export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];
