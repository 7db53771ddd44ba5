// Agents' OpenTelemetry events -> audit events. Plain functions over the checked request (schemas.ts).
// Kept: Claude Code's skill_activated, tool_decision and tool_result log events, Codex's tool_decision and
// tool_result log events and its codex.skill.injected counter. Everything else is counted and dropped: the
// counts are what the receiver answers as OTLP's partialSuccess.
import type { AuditEvent, AuditSource } from "../../runtime/audit/events";
import {
  AGENT_LOG_EVENTS,
  CODEX_SKILL_COUNTER,
  KNOWN_AGENTS,
  TELEMETRY_ATTRIBUTE_MAX_CHARS,
  TELEMETRY_CLOCK_SKEW_MS,
  TELEMETRY_MAX_ROWS_PER_REQUEST,
} from "../../domain/telemetry";
import type { AnyValue, KeyValue, LogRecord, LogsRequest, Metric, MetricsRequest, NumberPoint } from "./schemas";

/** Who sent the request: the token's user (or the machine token's name). */
export interface Sender {
  actorId: string;
  actorEmail: string | null;
}

export interface Mapped {
  events: AuditEvent[];
  /** Records or data points dropped, by event or metric name (for the partialSuccess message). */
  dropped: Map<string, number>;
}

type Attrs = Map<string, string | number | boolean>;

function scalar(v: AnyValue | undefined): string | number | boolean | undefined {
  if (!v) return undefined;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return Number(v.doubleValue);
  return undefined; // arrays, maps and bytes carry nothing the audit keeps
}

function attrs(list: KeyValue[] | undefined): Attrs {
  const m: Attrs = new Map();
  for (const kv of list ?? []) {
    const v = scalar(kv.value);
    if (v !== undefined) m.set(kv.key, v);
  }
  return m;
}

const text = (a: Attrs, ...keys: string[]): string | undefined => {
  for (const k of keys) {
    const v = a.get(k);
    if (v !== undefined && v !== "") return String(v).slice(0, TELEMETRY_ATTRIBUTE_MAX_CHARS);
  }
  return undefined;
};

/** The agent a resource belongs to: Claude Code's service.name is "claude-code"; Codex's starts with "codex". */
function agentOf(resource: Attrs): string {
  const name = text(resource, "service.name") ?? "unknown";
  if (name === KNOWN_AGENTS["claude-code"]) return "claude-code";
  if (name.startsWith("codex")) return "codex";
  return name;
}

function sourceOf(resource: Attrs, record: Attrs, sender: Sender): AuditSource {
  return {
    agent: agentOf(resource),
    version: text(resource, "service.version") ?? text(record, "app.version"),
    host: text(resource, "host.name") ?? text(record, "host.name"),
    // The agent's own account: Claude Code's user.email / user.account_uuid / user.id, Codex's user.email / user.account_id.
    user: text(record, "user.email", "user.account_uuid", "user.account_id", "user.id") ?? text(resource, "user.email") ?? sender.actorEmail ?? undefined,
  };
}

/** The receipt time unless the reported time is believable (within the skew of it). */
function timeOf(nanos: number | string | undefined, received: Date): { at: Date; reportedAt?: string } {
  if (nanos === undefined || nanos === "0" || nanos === 0) return { at: received };
  if (typeof nanos === "number" && !Number.isSafeInteger(nanos)) return { at: received, reportedAt: String(nanos) };
  const ms = Number(BigInt(String(nanos)) / 1_000_000n);
  if (Math.abs(ms - received.getTime()) <= TELEMETRY_CLOCK_SKEW_MS) return { at: new Date(ms) };
  return { at: received, reportedAt: Number.isFinite(ms) ? new Date(Math.max(-8.64e15, Math.min(8.64e15, ms))).toISOString() : String(nanos) };
}

/** A log record's event name without the agent's prefix: event_name, the event.name attribute, or the body. */
function eventNameOf(r: LogRecord, a: Attrs): string {
  const raw = r.eventName || text(a, "event.name") || (typeof r.body?.stringValue === "string" ? r.body.stringValue : "") || "(unnamed)";
  return raw.replace(/^(claude_code|codex)\./, "");
}

const allowedDecision = (d: string | undefined) => (d ? /^(accept|approved)/i.test(d) : undefined);

function mapLog(agent: string, name: string, a: Attrs, base: AuditEvent): AuditEvent | null {
  const known = (AGENT_LOG_EVENTS as Record<string, readonly string[]>)[agent];
  if (!known?.includes(name)) return null;
  const tool = text(a, "tool_name", "name");
  if (name === "skill_activated") {
    const skill = text(a, "skill.name");
    if (!skill) return null;
    return {
      ...base,
      type: "skill_activated",
      skill,
      outcome: "ok",
      details: { ...base.details, trigger: text(a, "invocation_trigger"), skillSource: text(a, "skill.source"), plugin: text(a, "plugin.name") },
    };
  }
  if (name === "tool_decision") {
    const allowed = allowedDecision(text(a, "decision"));
    if (!tool || allowed === undefined) return null;
    return {
      ...base,
      type: "agent_tool_decision",
      tool,
      outcome: allowed ? "allowed" : "refused",
      details: { ...base.details, decision: text(a, "decision"), decisionSource: text(a, "source", "decision_source"), toolUseId: text(a, "tool_use_id", "call_id") },
    };
  }
  // tool_result
  if (!tool) return null;
  const success = a.get("success");
  const duration = Number(a.get("duration_ms"));
  return {
    ...base,
    type: "agent_tool_result",
    tool,
    outcome: success === true || success === "true" ? "ok" : "failed",
    durationMs: Number.isFinite(duration) ? duration : undefined,
    details: { ...base.details, errorType: text(a, "error_type"), toolUseId: text(a, "tool_use_id", "call_id"), decisionSource: text(a, "decision_source") },
  };
}

/** OTLP nests every signal as resource → scope → item: each item, with its resource's attributes and agent. */
function* scopeItems<R extends { resource?: { attributes?: KeyValue[] } }, S, I>(resources: R[] | undefined, scopes: (r: R) => S[] | undefined, items: (s: S) => I[] | undefined) {
  for (const r of resources ?? []) {
    const resource = attrs(r.resource?.attributes);
    const agent = agentOf(resource);
    for (const sc of scopes(r) ?? []) for (const item of items(sc) ?? []) yield { resource, agent, item };
  }
}

const bump = (m: Map<string, number>, k: string, n = 1) => m.set(k, (m.get(k) ?? 0) + n);

export function mapLogs(req: LogsRequest, sender: Sender, received: Date): Mapped {
  const events: AuditEvent[] = [];
  const dropped = new Map<string, number>();
  for (const { resource, agent, item: r } of scopeItems(req.resourceLogs, (rl) => rl.scopeLogs, (sl) => sl.logRecords)) {
    const a = attrs(r.attributes);
    const name = eventNameOf(r, a);
    const { at, reportedAt } = timeOf(r.timeUnixNano ?? r.observedTimeUnixNano, received);
    const base: AuditEvent = {
      type: "skill_activated", // replaced by mapLog
      at,
      actor: { id: sender.actorId, email: sender.actorEmail ?? undefined },
      sessionId: text(a, "session.id", "conversation.id"),
      source: sourceOf(resource, a, sender),
      details: { event: `${agent === "codex" ? "codex" : agent === "claude-code" ? "claude_code" : agent}.${name}`, reportedAt },
    };
    const e = events.length < TELEMETRY_MAX_ROWS_PER_REQUEST ? mapLog(agent, name, a, base) : null;
    if (e) events.push(e);
    else bump(dropped, `${agent}:${name}`);
  }
  return { events, dropped };
}

/**
 * What a cumulative point needs to become an increment: the last value its series recorded. `since` is the series'
 * start (ms) when the agent's clock is believable: none of its rows is older, so the lookup reads only rows since
 * then, not the skill's whole history.
 */
export interface SeriesLookup {
  series: string;
  skill: string;
  since: number | null;
}

/**
 * The last cumulative values of many series, in the order of `lookups` (null where a series has none). mapMetrics
 * asks once per call with all its points' lookups, so a database answers a slice of points in one query, not one
 * round trip per point (issue #38: 10,000 points took 50 s on PostgreSQL).
 */
export type PreviousValues = (lookups: SeriesLookup[]) => (number | null)[] | Promise<(number | null)[]>;

function pointCount(m: Metric): number {
  const d = m.sum ?? m.gauge ?? m.histogram ?? m.exponentialHistogram ?? m.summary;
  return Math.max(1, d?.dataPoints?.length ?? 0);
}

function pointValue(p: NumberPoint): number {
  const v = p.asInt !== undefined ? Number(p.asInt) : p.asDouble !== undefined ? Number(p.asDouble) : 0;
  return Number.isFinite(v) ? v : 0;
}

/** A data point of the counter, read: everything its row needs but the series' last value. */
interface CounterPoint {
  agent: string;
  metric: string;
  a: Attrs;
  p: NumberPoint;
  skill: string;
  source: AuditSource;
  value: number;
  series: string;
  /** Its index in the lookups asked for; absent for a delta. */
  lookup?: number;
}

/** Points dropped before any lookup (another metric, a point without a skill), kept in their place among the others. */
interface DroppedPoints {
  dropped: string;
  n: number;
}

/**
 * The request's points in order, and the lookups its cumulative ones need. The drops stay in order among the points
 * so the dropped names come out in the order they did when each point was looked up as it was read.
 */
function readCounter(req: MetricsRequest, sender: Sender, received: Date): { points: (CounterPoint | DroppedPoints)[]; lookups: SeriesLookup[] } {
  const points: (CounterPoint | DroppedPoints)[] = [];
  const lookups: SeriesLookup[] = [];
  for (const { resource, agent, item: m } of scopeItems(req.resourceMetrics, (rm) => rm.scopeMetrics, (sm) => sm.metrics)) {
    if (m.name !== CODEX_SKILL_COUNTER || !m.sum) {
      points.push({ dropped: `${agent}:${m.name}`, n: pointCount(m) });
      continue;
    }
    // OTLP: 1 = delta, 2 = cumulative (the OpenTelemetry SDKs' default for counters).
    const cumulative = Number(m.sum.aggregationTemporality) === 2 || m.sum.aggregationTemporality === "AGGREGATION_TEMPORALITY_CUMULATIVE";
    for (const p of m.sum.dataPoints ?? []) {
      const a = attrs(p.attributes);
      const skill = text(a, "skill");
      if (!skill) {
        points.push({ dropped: `${agent}:${m.name}`, n: 1 });
        continue;
      }
      const source = sourceOf(resource, a, sender);
      // A series is one counter stream: its start time and labels, from one agent on one host.
      const series = [source.agent, source.host ?? "", source.user ?? "", skill, text(a, "status") ?? "", text(a, "invoke_type") ?? "", String(p.startTimeUnixNano ?? "")].join("|");
      let lookup: number | undefined;
      if (cumulative) {
        const started = timeOf(p.startTimeUnixNano, received);
        lookup = lookups.push({ series, skill, since: started.at === received ? null : started.at.getTime() }) - 1;
      }
      points.push({ agent, metric: m.name, a, p, skill, source, value: pointValue(p), series, lookup });
    }
  }
  return { points, lookups };
}

/**
 * `budget`: rows this call may still make (a request mapped a slice at a time passes what its earlier slices left).
 * Every cumulative point is compared with what the database held before the call: `previous` is asked once.
 */
export async function mapMetrics(req: MetricsRequest, sender: Sender, received: Date, previous: PreviousValues, budget = TELEMETRY_MAX_ROWS_PER_REQUEST): Promise<Mapped> {
  const events: AuditEvent[] = [];
  const dropped = new Map<string, number>();
  const { points, lookups } = readCounter(req, sender, received);
  const last = lookups.length ? await previous(lookups) : [];
  for (const point of points) {
    if ("dropped" in point) {
      bump(dropped, point.dropped, point.n);
      continue;
    }
    const { agent, metric, a, p, skill, source, value, series, lookup } = point;
    let n = value;
    if (lookup !== undefined) {
      const before = last[lookup] ?? null;
      n = before !== null && value >= before ? value - before : value; // a smaller value: the counter restarted
    }
    n = Math.min(Math.round(n), Number.MAX_SAFE_INTEGER);
    if (n <= 0) continue;
    const { at, reportedAt } = timeOf(p.timeUnixNano, received);
    // One row per point, however many activations it counts: details.count says how many, and the audit's
    // counts and charts add it up (ACTIVATION_COUNT). A row per activation let ten points of 1e9 write
    // 10,000 rows. Past the request's budget, points are dropped (and named), not turned into rows.
    if (events.length >= budget) {
      bump(dropped, `${agent}:${metric}`);
      continue;
    }
    events.push({
      type: "skill_activated",
      at,
      actor: { id: sender.actorId, email: sender.actorEmail ?? undefined },
      skill,
      outcome: text(a, "status") === "error" ? "failed" : "ok",
      source,
      details: {
        event: metric,
        invokeType: text(a, "invoke_type"),
        series,
        ...(lookup !== undefined ? { cumulative: value } : {}),
        ...(n > 1 ? { count: n } : {}),
        reportedAt,
      },
    });
  }
  return { events, dropped };
}
