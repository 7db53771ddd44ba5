// Tests that tamper with rows (to prove the audit chain names the change) or read them back as the table holds them,
// on either database: one statement with `?` for its values, run through drizzle's sql template (SQLite's run() and
// all(), PostgreSQL's execute()), never through SQLite's file or driver. Column names in the text are the tables'
// own (snake_case), the same on both.
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { dbKind } from "../dialect";
import { rawRows } from "../raw";

function statement(text: string, params: unknown[]): SQL {
  const parts = text.split("?");
  if (parts.length !== params.length + 1) throw new Error(`${parts.length - 1} placeholders for ${params.length} values: ${text}`);
  return sql.join(parts.flatMap((part, i) => (i < params.length ? [sql.raw(part), sql`${params[i]}`] : [sql.raw(part)])));
}

/** Runs one statement that returns no rows (UPDATE, DELETE, INSERT). */
export async function execSql(db: Db, text: string, ...params: unknown[]): Promise<void> {
  const q = statement(text, params);
  if (dbKind(db) === "sqlite") db.run(q);
  else await (db as unknown as { execute(q: SQL): Promise<unknown> }).execute(q);
}

/** The rows of one SELECT. */
export function selectSql<T>(db: Db, text: string, ...params: unknown[]): Promise<T[]> {
  return rawRows<T>(db, statement(text, params));
}
