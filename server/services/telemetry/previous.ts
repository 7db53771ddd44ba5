// The last cumulative value each counter series recorded, for many series in one statement: a slice's points are
// one round trip, not one each (issue #38: 10,000 points were 10,000 round trips, 50 s on PostgreSQL under load).
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { jsonNumber, jsonText } from "../../../db/dialect";
import { rawRows } from "../../../db/raw";
import { auditEvents } from "../../../db/schema/audit";
import type { SeriesLookup } from "./map";

/** Series per statement: four parameters each, well under SQLite's (32,766) and PostgreSQL's (65,535) limits. */
const PER_STATEMENT = 500;

/**
 * The series' lookups as rows of a VALUES list, each answered by a subquery that walks the audit along (skill, at)
 * newest first and stops at the series' last row, or at its start when it has none: the same bound read as a
 * lookup of its own. A VALUES list with a correlated subquery reads the same on SQLite and PostgreSQL; the casts
 * give PostgreSQL the parameters' types, which a VALUES list leaves unknown (text), and SQLite ignores them.
 * The type is tested as `(...) IS TRUE`, which no index serves: on a table it had not analyzed yet, PostgreSQL
 * walked (type, at, skill) instead, every activation since the series' start for each lookup (12 s, not 1.2, for
 * a second export of 10,000 series).
 */
export function lastValuesQuery(db: Db, lookups: SeriesLookup[]) {
  const e = auditEvents;
  const rows = sql.join(
    lookups.map((l, i) => sql`(CAST(${i} AS integer), CAST(${l.skill} AS text), CAST(${l.since ?? Number.MIN_SAFE_INTEGER} AS bigint), CAST(${l.series} AS text))`),
    sql`, `,
  );
  return sql`WITH k(i, skill, since, series) AS (VALUES ${rows})
    SELECT k.i AS i, (
      SELECT ${jsonNumber(db, e.details, "cumulative")} FROM ${e}
      WHERE ${e.skill} = k.skill AND ${e.at} >= k.since AND (${e.type} = 'skill_activated') IS TRUE AND ${jsonText(db, e.details, "series")} = k.series
      ORDER BY ${e.at} DESC, ${e.id} DESC LIMIT 1
    ) AS v FROM k`;
}

/** The last values of `lookups`, in their order (null where a series has none); each distinct series asked once. */
export async function previousValues(db: Db, lookups: SeriesLookup[]): Promise<(number | null)[]> {
  const keyOf = (l: SeriesLookup) => JSON.stringify([l.series, l.skill, l.since]);
  const distinct = new Map<string, SeriesLookup>();
  for (const l of lookups) if (!distinct.has(keyOf(l))) distinct.set(keyOf(l), l);
  const unique = [...distinct.values()];
  const found = new Map<string, number>();
  for (let start = 0; start < unique.length; start += PER_STATEMENT) {
    const part = unique.slice(start, start + PER_STATEMENT);
    for (const row of await rawRows<{ i: number; v: unknown }>(db, lastValuesQuery(db, part))) {
      if (typeof row.v === "number") found.set(keyOf(part[Number(row.i)]!), row.v);
    }
  }
  return lookups.map((l) => found.get(keyOf(l)) ?? null);
}
