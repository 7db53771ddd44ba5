// The audit vocabulary shared by the runtime, the services and the console.
// The runtime only ever talks to an AuditSink; where events end up (SQLite, stdout) is the host's choice.

export { AUDIT_EVENT_TYPES, type AuditEventType } from "../../domain/audit-events";
import type { AuditEventType } from "../../domain/audit-events";

export type AuditOutcome = "allowed" | "refused" | "failed" | "ok";

export interface AuditActor {
  /** Console user id, or a stable name such as "cli" or "system". */
  id: string;
  email?: string;
}

/** Who acts, and where their actions go on record: what a service that changes state is handed. */
export interface Audited {
  audit: AuditSink;
  actor: AuditActor;
}

/** Where an event happened outside the console: the agent that reported it (OTLP telemetry). */
export interface AuditSource {
  /** "claude-code", "codex", or the reporting service's name. */
  agent: string;
  version?: string;
  host?: string;
  /** The agent's user as it reported them (an email or an account id). */
  user?: string;
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
  /** Set only for events reported by an agent; absent means the console itself. */
  source?: AuditSource;
  /** The tenant the request acted for (issue #40), when it named or was given one. */
  tenant?: string;
  /** Free-form, JSON-serialisable details (arguments, exit codes, before/after). Never secrets. */
  details?: Record<string, unknown>;
}

export interface AuditSink {
  record(event: AuditEvent): void;
}

/** A sink that keeps events in memory: for the CLI's --json output and for tests. */
/** Records nothing: for previews that run tools without a real session (the editor's disclosure preview). */
export const nullAuditSink: AuditSink = { record() {} };

export class MemoryAuditSink implements AuditSink {
  readonly events: AuditEvent[] = [];
  record(event: AuditEvent): void {
    this.events.push({ ...event, at: event.at ?? new Date() });
  }
}

