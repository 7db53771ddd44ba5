// The database's own plan for the statements a service sends: the statements are caught as the driver runs them
// (statements.ts) and handed back to EXPLAIN with the same values, so a plan test checks exactly what the service
// asked. SQLite's EXPLAIN QUERY PLAN details and PostgreSQL's EXPLAIN lines, one string per statement.
import type { Db } from "../client";
import { dbKind, postgresPool } from "../dialect";
import { countStatements, type SentStatement } from "./statements";

async function planOf(db: Db, s: SentStatement): Promise<string> {
  if (dbKind(db) === "postgres") {
    const r = await postgresPool(db)!.query<{ "QUERY PLAN": string }>(`EXPLAIN ${s.text}`, s.values);
    return r.rows.map((row) => row["QUERY PLAN"]).join("\n");
  }
  return (db.$client.prepare(`EXPLAIN QUERY PLAN ${s.text}`).all(...s.values) as { detail: string }[]).map((row) => row.detail).join("\n");
}

/** The statements `run` sends whose text matches, each with the database's plan for it. */
export async function plansOf(db: Db, matching: RegExp, run: () => Promise<unknown>): Promise<{ text: string; plan: string }[]> {
  const statements = countStatements(db, matching);
  try {
    await run();
  } finally {
    statements.stop();
  }
  return Promise.all(statements.sent.map(async (s) => ({ text: s.text, plan: await planOf(db, s) })));
}

/** A read from `index` alone: SQLite names a covering index, PostgreSQL an index-only scan with no visit to the table. */
export function readsOnly(db: Db, index: string): RegExp {
  return dbKind(db) === "postgres" ? new RegExp(`Index Only Scan using ${index}\\b`) : new RegExp(`USING COVERING INDEX ${index}\\b`);
}
