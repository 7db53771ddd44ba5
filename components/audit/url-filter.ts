// The dashboard's filters live in the URL so a view can be shared. This maps the query string to the
// filter the server validates (the audit service's filter.ts) and back. Pure: used by the page and tested.
// The field names come from server/domain/audit-filter-keys.ts (the schema's fields, without zod in the browser).
import { AUDIT_FILTER_KEYS, AUDIT_TEXT_KEYS, isAuditOutcome, type AuditOutcome } from "~/server/domain/audit-filter-keys";

/** The URL's keys: the service's filter fields plus "range", which the page resolves to from/to. */
export const FILTER_KEYS = ["range", ...AUDIT_FILTER_KEYS] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];
export type UrlFilter = Partial<Record<FilterKey, string>>;

export const RANGES: Record<string, { label: string; ms: number | null }> = {
  "1h": { label: "Last hour", ms: 3_600_000 },
  "24h": { label: "Last 24 hours", ms: 86_400_000 },
  "7d": { label: "Last 7 days", ms: 7 * 86_400_000 },
  "30d": { label: "Last 30 days", ms: 30 * 86_400_000 },
  all: { label: "All time", ms: null },
};
export const DEFAULT_RANGE = "7d";

export function readUrlFilter(sp: URLSearchParams): UrlFilter {
  const out: UrlFilter = {};
  for (const k of FILTER_KEYS) {
    const v = sp.get(k)?.trim();
    if (v) out[k] = v.slice(0, 200);
  }
  return out;
}

/** The query string for a filter: empty values and the default range left out, keys in a stable order. */
export function writeUrlFilter(f: UrlFilter, extra: Record<string, string | undefined> = {}): string {
  const sp = new URLSearchParams();
  for (const k of FILTER_KEYS) {
    const v = f[k]?.trim();
    if (!v || (k === "range" && v === DEFAULT_RANGE)) continue;
    sp.set(k, v);
  }
  for (const [k, v] of Object.entries(extra)) if (v) sp.set(k, v);
  return sp.toString();
}

/** The resolved filter, as the service's schema reads it (times as epoch milliseconds). */
export type QueryFilter = Partial<Record<(typeof AUDIT_TEXT_KEYS)[number], string>> & { from?: number; to?: number; outcome?: AuditOutcome };

/** A URL's from/to as epoch milliseconds (the export links write digits, people ISO dates), or undefined when it is no date. */
function time(v: string | undefined): number | undefined {
  if (!v) return undefined;
  const t = /^\d+$/.test(v) ? Number(v) : Date.parse(v);
  // Finite but beyond ±8.64e15 ms is no date either: new Date(t).toISOString() would throw.
  return Number.isFinite(t) && !Number.isNaN(new Date(t).getTime()) ? t : undefined;
}

/** The value of a datetime-local field (UTC, to the minute) for a URL's from/to; "" when it is missing or no date. */
export function dateFieldValue(v: string | undefined): string {
  const t = time(v);
  return t === undefined ? "" : new Date(t).toISOString().slice(0, 16);
}

/** The URL's from/to that are set but are no date: the page ignores them and says so, rather than failing. */
export function unreadableDates(f: UrlFilter): { key: "from" | "to"; value: string }[] {
  return (["from", "to"] as const).filter((k) => f[k] && time(f[k]) === undefined).map((k) => ({ key: k, value: f[k]! }));
}

/**
 * The filter to query with. An explicit from/to wins; otherwise the range (default 7 days) ends at `now`,
 * which the page fixes once per view so the table, the charts and the export ask about the same rows.
 */
export function toQueryFilter(f: UrlFilter, now: number): QueryFilter {
  const q: QueryFilter = {};
  const from = time(f.from);
  const to = time(f.to);
  if (from !== undefined || to !== undefined) {
    if (from !== undefined) q.from = from;
    if (to !== undefined) q.to = to;
  } else {
    const range = RANGES[f.range ?? DEFAULT_RANGE] ?? RANGES[DEFAULT_RANGE]!;
    if (range.ms !== null) q.from = now - range.ms;
    q.to = now + 1;
  }
  for (const k of AUDIT_TEXT_KEYS) if (f[k]) q[k] = f[k];
  if (f.outcome && isAuditOutcome(f.outcome)) q.outcome = f.outcome;
  return q;
}

/** Query-string form of a resolved filter (for the export link): times as epoch milliseconds. */
export function queryFilterToSearch(q: QueryFilter): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== "") sp.set(k, String(v));
  return sp.toString();
}
