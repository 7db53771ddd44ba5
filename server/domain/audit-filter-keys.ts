// The audit filter's fields, without zod: the dashboard (a browser bundle) reads them from here, services/audit/filter.ts
// builds its schema from them, and the export route reads the query string with them, so the three never drift apart.

import type { ConsoleSource } from "./audit-events";

/** The filter's fields, in the order a URL writes them. */
export const AUDIT_FILTER_KEYS = ["from", "to", "type", "skill", "layer", "user", "session", "model", "tool", "outcome", "source"] as const;
export type AuditFilterKey = (typeof AUDIT_FILTER_KEYS)[number];

/** The fields compared as plain text (the others are times and the outcome). */
export const AUDIT_TEXT_KEYS = ["type", "skill", "layer", "user", "session", "model", "tool", "source"] as const satisfies readonly AuditFilterKey[];

/** The `source` filter's values for the console's own events (rows no agent reported): its playground's, and the rest. */
export const CONSOLE_SOURCE = "console" satisfies ConsoleSource;
export const PLAYGROUND_SOURCE = "playground" satisfies ConsoleSource;
export const isConsoleSource = (source: string): source is ConsoleSource => source === CONSOLE_SOURCE || source === PLAYGROUND_SOURCE;

export const AUDIT_OUTCOMES = ["allowed", "refused", "failed", "ok"] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

export const isAuditOutcome = (value: string): value is AuditOutcome => (AUDIT_OUTCOMES as readonly string[]).includes(value);

/**
 * Why a from/to pair can hold no event (to is exclusive), or null. The dashboard's fields and the server's schema
 * both ask this: an inverted range answered "0 events", which reads as "nothing happened".
 */
export function auditRangeProblem(from: number | undefined, to: number | undefined): string | null {
  if (from === undefined || to === undefined || from < to) return null;
  const at = (t: number) => new Date(t).toISOString().slice(0, 16).replace("T", " ");
  return from === to
    ? `From and To are the same moment (${at(from)} UTC), so the range holds nothing: set To later than From.`
    : `From (${at(from)} UTC) is after To (${at(to)} UTC), so no event can fall between them: swap the two dates.`;
}
