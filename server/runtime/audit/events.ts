// The audit vocabulary shared by the runtime, the services and the console.
// The runtime only ever talks to an AuditSink; where events end up (SQLite, stdout) is the host's choice.

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
] as const;

export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

export type AuditOutcome = "allowed" | "refused" | "failed" | "ok";

export interface AuditActor {
  /** Console user id, or a stable name such as "cli" or "system". */
  id: string;
  email?: string;
}

export interface AuditEvent {
  type: AuditEventType;
  /** Set by the sink when absent. */
  at?: Date;
  actor?: AuditActor;
  sessionId?: string;
  skill?: string;
  layer?: string;
  digest?: string;
  tool?: string;
  model?: string;
  mode?: string;
  outcome?: AuditOutcome;
  durationMs?: number;
  /** Free-form, JSON-serialisable details (arguments, exit codes, before/after). Never secrets. */
  details?: Record<string, unknown>;
}

export interface AuditSink {
  record(event: AuditEvent): void;
}

/** A sink that keeps events in memory: for the CLI's --json output and for tests. */
export class MemoryAuditSink implements AuditSink {
  readonly events: AuditEvent[] = [];
  record(event: AuditEvent): void {
    this.events.push({ ...event, at: event.at ?? new Date() });
  }
}

export const nullAuditSink: AuditSink = { record() {} };
