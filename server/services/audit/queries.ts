// Read side of the audit log, for the dashboard and the CLI. Plain functions over drizzle queries on db/schema/audit.ts:
// filter (validated by filter.ts) + scope (set by the server: authors see only their own events).
// Each query is shaped so SQLite can answer it from an index whose last column is `at` (see db/schema/audit.ts):
// lists are ordered by (at, id) descending with a keyset cursor, so a page at 1,000,000 rows reads ~limit
// index entries instead of sorting the matches.
import { and, asc, count, desc, eq, inArray, isNotNull, max, min, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { preparedByKey, preparedQuery } from "../../../db/prepared";
import { ascNullsFirst, dbKind, jsonNumber } from "../../../db/dialect";
import { rawRows } from "../../../db/raw";
import { auditEvents } from "../../../db/schema/audit";
import { users } from "../../../db/schema/users";
import { cursorOf, olderThan, pageSchema, parseCursor, whereOf, type AuditFilter, type AuditPage, type AuditScope } from "./filter";
import { isConsoleSource } from "../../domain/audit-filter-keys";
import { ROW_FIELDS } from "./rows";
import { flushAudit } from "./sink";
import type { StoredRow } from "./verify";

export interface AuditEventView extends Omit<StoredRow, "details"> {
  details: Record<string, unknown> | null;
}

/** Newest first, with the id breaking ties: the order every list and cursor uses. */
const NEWEST_FIRST = [desc(auditEvents.at), desc(auditEvents.id)] as const;

async function listPage(db: Db, where: SQL | undefined, limit: number): Promise<StoredRow[]> {
  return await db
    .select(ROW_FIELDS)
    .from(auditEvents)
    .where(where)
    .orderBy(...NEWEST_FIRST)
    .limit(limit);
}

async function countWhere(db: Db, where: SQL | undefined): Promise<number> {
  return (await db.select({ n: count() }).from(auditEvents).where(where))[0]!.n;
}

export function toView(row: StoredRow): AuditEventView {
  let details: Record<string, unknown> | null = null;
  if (row.details) {
    try {
      details = JSON.parse(row.details) as Record<string, unknown>;
    } catch {
      details = { unparsed: row.details };
    }
  }
  return { ...row, details };
}

/**
 * Events recorded with only an actor id (the agent's and the playground's) show the person: their email from the
 * users table, looked up once per page. The stored row is unchanged (the chain covers it); only the view gains it.
 */
// One statement for a page's people (a round trip per person was half of audit.list's statements on PostgreSQL), prepared
// once per connection and list size. Sizes are powers of two up to 32 (the last id repeated to fill), so there are six.
const PEOPLE_PER_LOOKUP = 32;
const emailsQuery = preparedByKey<{ execute(values: Record<string, unknown>): PromiseLike<{ id: string; email: string }[]> }>(8);
const emailsOf = (db: Db, size: number) =>
  emailsQuery(db, String(size), () =>
    db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(inArray(users.id, Array.from({ length: size }, (_, i) => sql.placeholder(`id${i}`))))
      .prepare(),
  );

export async function withPeople<T extends { actorId: string | null; actorEmail: string | null }>(db: Db, events: T[]): Promise<T[]> {
  const ids = [...new Set(events.filter((e) => e.actorId && !e.actorEmail).map((e) => e.actorId!))];
  if (!ids.length) return events;
  const email = new Map<string, string>();
  for (let i = 0; i < ids.length; i += PEOPLE_PER_LOOKUP) {
    const part = ids.slice(i, i + PEOPLE_PER_LOOKUP);
    const size = 2 ** Math.ceil(Math.log2(part.length));
    const values = Object.fromEntries(Array.from({ length: size }, (_, k) => [`id${k}`, part[Math.min(k, part.length - 1)]]));
    for (const row of await emailsOf(db, size).execute(values)) email.set(row.id, row.email);
  }
  return events.map((e) => (e.actorId && !e.actorEmail && email.has(e.actorId) ? { ...e, actorEmail: email.get(e.actorId)! } : e));
}

export type EventPage = { events: AuditEventView[]; nextCursor: string | null };

/**
 * A keyset page: `read` returns up to `fetch` stored rows older than the cursor, newest first; one more than
 * the page size is asked for, so a full page knows whether another follows.
 */
async function paged(db: Db, page: AuditPage, read: (older: SQL | undefined, fetch: number) => Promise<StoredRow[]>): Promise<EventPage> {
  await flushAudit(db);
  const { cursor, limit } = pageSchema.parse(page);
  return pageOf(db, await read(olderThan(parseCursor(cursor)), limit + 1), limit);
}

/** The page of `limit` events from rows read one beyond it (so a full page knows whether another follows). */
async function pageOf(db: Db, rows: StoredRow[], limit: number): Promise<EventPage> {
  const more = rows.length > limit;
  const events = await withPeople(db, rows.slice(0, limit).map(toView));
  return { events, nextCursor: more ? cursorOf(events[events.length - 1]!) : null };
}

// The audit page is read over and over with the same filter fields (most often none): its query is prepared once
// per connection and set of fields, with every value a placeholder. Building it with drizzle and having SQLite
// compile it again on every call was half of audit.list's CPU under load.
type PageQuery = { execute(values: Record<string, unknown>): PromiseLike<StoredRow[]> };
const pageQuery = preparedByKey<PageQuery>(256);

function preparedPage(db: Db, filter: AuditFilter, scope: AuditScope, cursor: { at: number; id: number } | null): { query: PageQuery; values: Record<string, unknown> } {
  const keys = (Object.keys(filter) as (keyof AuditFilter)[]).filter((k) => filter[k] !== undefined && k !== "source").sort();
  // The console's own events are those with no source at all (a different condition, not another value).
  const source = filter.source === undefined ? "" : isConsoleSource(filter.source) ? filter.source : "agent";
  // A tenant admin's tenants are part of the prepared statement, so they are part of its key.
  const shape = `${scope.kind === "tenants" ? `tenants:${JSON.stringify(scope.tenants)}` : scope.kind}|${keys.join(",")}|${source}|${cursor ? "older" : ""}`;
  const query = pageQuery(db, shape, () => {
    const slots: Record<string, unknown> = Object.fromEntries(keys.map((k) => [k, sql.placeholder(k)]));
    if (source) slots.source = source === "agent" ? sql.placeholder("source") : source;
    const scopeSlot = scope.kind === "own" ? ({ kind: "own", actorId: sql.placeholder("scopeActor") } as unknown as AuditScope) : scope;
    const older = cursor ? olderThan({ at: sql.placeholder("cursorAt"), id: sql.placeholder("cursorId") } as unknown as { at: number; id: number }) : undefined;
    return db
      .select(ROW_FIELDS)
      .from(auditEvents)
      .where(whereOf(slots as AuditFilter, scopeSlot, older))
      .orderBy(...NEWEST_FIRST)
      .limit(sql.placeholder("limit"))
      .prepare();
  });
  const values: Record<string, unknown> = Object.fromEntries(keys.map((k) => [k, filter[k]]));
  if (source === "agent") values.source = filter.source;
  if (scope.kind === "own") values.scopeActor = scope.actorId;
  if (cursor) Object.assign(values, { cursorAt: cursor.at, cursorId: cursor.id });
  return { query, values };
}

/** One page of events, newest first. `nextCursor` is null on the last page. */
export async function listEvents(db: Db, filter: AuditFilter, scope: AuditScope, page: AuditPage = {}): Promise<EventPage> {
  await flushAudit(db);
  const { cursor, limit } = pageSchema.parse(page);
  const { query, values } = preparedPage(db, filter, scope, parseCursor(cursor));
  return pageOf(db, await query.execute({ ...values, limit: limit + 1 }), limit);
}

/**
 * Activations a set of skill_activated rows stands for: an agent's counter point is one row whose details.count
 * says how many it counted (services/telemetry/map.ts); every other row is one.
 */
const activations = (db: Db) => sql<number>`COALESCE(SUM(COALESCE(${jsonNumber(db, auditEvents.details, "count")}, 1)), 0)`;

/** How many activations match (the overview's figure), counters' counts included. */
export async function countActivations(db: Db, filter: AuditFilter, scope: AuditScope): Promise<number> {
  await flushAudit(db);
  return (await db.select({ n: activations(db) }).from(auditEvents).where(whereOf({ ...filter, type: "skill_activated" }, scope)))[0]!.n;
}

/** How many events match (the table's "N events"). */
export async function countEvents(db: Db, filter: AuditFilter, scope: AuditScope): Promise<number> {
  await flushAudit(db);
  return countWhere(db, whereOf(filter, scope));
}

export async function getEvent(db: Db, id: number, scope: AuditScope): Promise<AuditEventView | null> {
  await flushAudit(db);
  const row = (await db.select(ROW_FIELDS).from(auditEvents).where(whereOf({}, scope, eq(auditEvents.id, id))).limit(1))[0];
  return row ? (await withPeople(db, [toView(row)]))[0]! : null;
}

export type Bucket = "hour" | "day";
const BUCKET_MS: Record<Bucket, number> = { hour: 3_600_000, day: 86_400_000 };

/** A bucket size that keeps a chart readable: hours up to three days, days beyond. */
export function autoBucket(filter: AuditFilter): Bucket {
  if (filter.from === undefined) return "day";
  const to = filter.to ?? Date.now();
  return to - filter.from <= 3 * 86_400_000 ? "hour" : "day";
}

/** Event counts per time bucket (UTC) and type. */
export async function timeSeries(
  db: Db,
  filter: AuditFilter,
  scope: AuditScope,
  bucket: Bucket = autoBucket(filter),
): Promise<{ bucket: Bucket; points: { t: number; type: string; n: number }[] }> {
  await flushAudit(db);
  const ms = BUCKET_MS[bucket];
  const span = (
    await db
      .select({ lo: min(auditEvents.at), hi: max(auditEvents.at) })
      .from(auditEvents)
      .where(whereOf(filter, scope))
  )[0]!;
  if (span.lo === null || span.hi === null) return { bucket, points: [] };
  // At most MAX_BUCKETS buckets, the newest ones (the chart draws no more).
  const lastStart = Math.floor(span.hi / ms) * ms;
  const firstStart = Math.max(Math.floor(span.lo / ms) * ms, lastStart - (MAX_BUCKETS - 1) * ms);
  const types = filter.type ? [filter.type] : await eventTypes(db);
  // Where the query differs (db/dialect.ts): on SQLite one COUNT per (type, bucket), each a range count on the
  // (type, at) index with no row visited and no sort (a GROUP BY over buckets sorts them in a temporary b-tree:
  // ~1.5-2x slower at 1,000,000 rows). On PostgreSQL each statement is a round trip to another process: a day by hour
  // is 288 of them (395 ms at 1,000,000 rows on a loaded host), so it asks one grouped query per type (79 ms).
  const points =
    dbKind(db) === "postgres"
      ? await groupedByBucket(db, filter, scope, types, firstStart, ms)
      : await countedPerBucket(db, filter, scope, types, firstStart, lastStart, ms);
  points.sort((a, b) => a.t - b.t || (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
  return { bucket, points };
}

type SeriesPoint = { t: number; type: string; n: number };

/** A type's figure: its rows, or for activations the counts they stand for (an agent's counter point counts many). */
const seriesFigure = (db: Db, type: string) => (type === "skill_activated" ? activations(db) : count());

async function countedPerBucket(db: Db, filter: AuditFilter, scope: AuditScope, types: string[], firstStart: number, lastStart: number, ms: number): Promise<SeriesPoint[]> {
  // Prepared once per type, with the bucket's bounds as placeholders.
  const range = { from: sql.placeholder("from"), to: sql.placeholder("to") };
  const counters = types.map((type) => ({
    type,
    query: db.select({ n: seriesFigure(db, type) }).from(auditEvents).where(whereOf({ ...filter, type, ...range }, scope)).prepare(),
  }));
  const points: SeriesPoint[] = [];
  for (let t = firstStart; t <= lastStart; t += ms) {
    const from = Math.max(t, filter.from ?? -Infinity);
    const to = Math.min(t + ms, filter.to ?? Infinity);
    for (const { type, query } of counters) {
      const n = (await query.execute({ from, to }))[0]!.n;
      if (n > 0) points.push({ t, type, n });
    }
  }
  return points;
}

async function groupedByBucket(db: Db, filter: AuditFilter, scope: AuditScope, types: string[], firstStart: number, ms: number): Promise<SeriesPoint[]> {
  // The bucket is (at - firstStart) / ms with at >= firstStart: a whole division, so it floors. Both numbers are
  // whole and computed here, written into the statement so the select list and the GROUP BY are one expression.
  const bucketOf = sql<number>`(${auditEvents.at} - (${sql.raw(String(firstStart))})) / ${sql.raw(String(ms))}`.mapWith(Number);
  const from = Math.max(firstStart, filter.from ?? firstStart);
  const points: SeriesPoint[] = [];
  for (const type of types) {
    const rows = await db
      .select({ b: bucketOf, n: seriesFigure(db, type).mapWith(Number) })
      .from(auditEvents)
      .where(whereOf({ ...filter, type, from }, scope))
      .groupBy(bucketOf);
    for (const r of rows) if (r.n > 0) points.push({ t: firstStart + r.b * ms, type, n: r.n });
  }
  return points;
}

export const MAX_BUCKETS = 400;

/** The distinct event types present, by skipping through the (type, at) index (one seek per type). */
export async function eventTypes(db: Db): Promise<string[]> {
  // A recursive CTE, which drizzle's builder does not express; the table and column still come from the schema.
  const type = sql.identifier(auditEvents.type.name);
  return (
    await rawRows<{ v: string }>(
      db,
      sql`WITH RECURSIVE t(v) AS (SELECT MIN(${type}) FROM ${auditEvents}
         UNION ALL SELECT (SELECT MIN(${type}) FROM ${auditEvents} WHERE ${type} > t.v) FROM t WHERE t.v IS NOT NULL)
       SELECT v FROM t WHERE v IS NOT NULL`,
    )
  ).map((r) => r.v);
}

/**
 * Skills by number of activations, most first. A failed one (Codex's counter with status "error": asked for, not
 * injected) stays in the log but is no activation.
 */
export async function topSkillsByActivation(db: Db, filter: AuditFilter, scope: AuditScope, limit = 10): Promise<{ skill: string; n: number }[]> {
  await flushAudit(db);
  return await db
    .select({ skill: auditEvents.skill, n: activations(db) })
    .from(auditEvents)
    .where(whereOf({ ...filter, type: "skill_activated" }, scope, and(isNotNull(auditEvents.skill), sql`${auditEvents.outcome} IS DISTINCT FROM 'failed'`)))
    .groupBy(auditEvents.skill)
    .orderBy(desc(activations(db)), asc(auditEvents.skill))
    .limit(limit) as { skill: string; n: number }[];
}

/** Refused tool calls, blocked reads and refused scripts, grouped by skill and tool. */
export async function refusalsBySkillAndTool(
  db: Db,
  filter: AuditFilter,
  scope: AuditScope,
  limit = 20,
): Promise<{ skill: string | null; tool: string | null; n: number }[]> {
  await flushAudit(db);
  // Refusals of a skill's tools and scripts; refused logins and role checks have neither and are left out.
  const w = whereOf({ ...filter, outcome: "refused" }, scope, or(isNotNull(auditEvents.skill), isNotNull(auditEvents.tool)));
  return await db
    .select({ skill: auditEvents.skill, tool: auditEvents.tool, n: count() })
    .from(auditEvents)
    .where(w)
    .groupBy(auditEvents.skill, auditEvents.tool)
    .orderBy(desc(count()), ascNullsFirst(auditEvents.skill), ascNullsFirst(auditEvents.tool))
    .limit(limit);
}

/**
 * Script runs by how they ended: "exit 0", "exit N", "timeout", "refused" (the sandbox would not run it)
 * or "unknown". Each row's status was stored when it was written (exit-status.ts), and (type, at, ..., exit_status,
 * tenant) holds it: a week's runs are counted from that index, where reading details.exitCode from each row's JSON
 * took 120 ms on SQLite and 188 ms on PostgreSQL at 1,000,000 rows (issue #38).
 */
export async function scriptRunsByExitStatus(db: Db, filter: AuditFilter, scope: AuditScope): Promise<{ status: string; n: number }[]> {
  await flushAudit(db);
  // A run stored without one (written by a server of the previous version during an upgrade) is of unknown end.
  const status = sql<string>`COALESCE(${auditEvents.exitStatus}, 'unknown')`;
  return await db
    .select({ status, n: count() })
    .from(auditEvents)
    .where(whereOf({ ...filter, type: "script_executed" }, scope))
    .groupBy(status)
    .orderBy(desc(count()));
}

export const VIOLATION_TYPES = ["tool_restriction_violated", "script_read_blocked"] as const;

/**
 * Every refused tool call (the executor records those as tool_restriction_violated) and blocked script read,
 * newest first, with the session it came from. Each kind is read through its own (type, at) index and the
 * two pages merged, so this stays fast however many events there are.
 */
export async function violations(db: Db, filter: AuditFilter, scope: AuditScope, page: AuditPage = {}): Promise<EventPage> {
  const types = VIOLATION_TYPES.filter((type) => !filter.type || filter.type === type);
  if (types.length === 0) return { events: [], nextCursor: null };
  // One page per kind, merged here in the same (at, id) descending order.
  return paged(db, page, async (older, fetch) =>
    (await Promise.all(types.map((type) => listPage(db, whereOf({ ...filter, type }, scope, older), fetch))))
      .flat()
      .sort((a, b) => b.at - a.at || b.id - a.id)
      .slice(0, fetch),
  );
}
