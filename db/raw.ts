// Rows of a statement drizzle's builder cannot express (a recursive CTE, say). The two drivers return them
// differently: better-sqlite3's drizzle has a synchronous all(), node-postgres's an execute() whose result holds rows.
import type { SQL } from "drizzle-orm";
import type { Db } from "./client";
import { dbKind } from "./dialect";

export async function rawRows<T>(db: Db, query: SQL): Promise<T[]> {
  if (dbKind(db) === "sqlite") return db.all<T>(query);
  const pgDb = db as unknown as { execute(q: SQL): Promise<{ rows: T[] }> };
  return (await pgDb.execute(query)).rows;
}
