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
  // A git source added, moved to another commit, rolled back or removed; details carry both commits.
  "source_added",
  "source_updated",
  "source_update_proposed",
  "source_rolled_back",
  "source_removed",
  // `omniforge publish marketplace`: where, the commit it made, each plugin's version.
  "marketplace_published",
  "personal_skill_opened",
  "policy_changed",
  "approval_decided",
  "user_created",
  "user_updated",
  // A user's tenants set by an admin or by the identity provider's claim at sign-in (issue #40).
  "tenants_assigned",
  "login",
  "login_failed",
  "logout",
  "sessions_revoked",
  "password_changed",
  "password_reset",
  "access_denied",
  "agent_run_started",
  "agent_run_finished",
  "eval_run",
  // A stop asked for a playground turn or a trigger-test run, on whichever server runs it (server/services/stops).
  "stop_requested",
  "token_created",
  "token_revoked",
  "catalog_synced",
  "doctor_report",
  // Reported by agents over OTLP (server/services/telemetry); the row's source says which agent, where.
  "agent_tool_decision",
  "agent_tool_result",
] as const;

export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/** An agent's turn and its tool calls: recorded by the console itself (no agent reported them), they are its playground's. */
export const PLAYGROUND_EVENT_TYPES = [
  "skill_activated",
  "skill_deactivated",
  "tool_call",
  "tool_restriction_violated",
  "script_executed",
  "script_read_blocked",
  "hook_executed",
  "agent_run_started",
  "agent_run_finished",
] as const satisfies readonly AuditEventType[];

/** The source agent of events `omniforge agent run` writes into a console's audit (the command line, not the console). */
export const CLI_SOURCE_AGENT = "omniforge-cli";

/** Where the console's own events happened (the audit page's source filter values), and how people say it. */
export const CONSOLE_SOURCE_LABELS = { console: "Console", playground: "Console playground" } as const;
export type ConsoleSource = keyof typeof CONSOLE_SOURCE_LABELS;

/** The console's part an event of the console's own came from, by what the event is. */
export const consoleSourceOf = (type: string): ConsoleSource => ((PLAYGROUND_EVENT_TYPES as readonly string[]).includes(type) ? "playground" : "console");
