// PostgreSQL through drizzle's node-postgres driver, with the db/migrations/postgres migrations applied. Not the
// console's database yet: the services run synchronous SQLite transactions today (docs/deploy.md, next steps);
// `omniforge db copy` and the schema tests use it now.
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { migrationsFolder } from "../client";
import * as schema from "./schema";

export type PgDb = NodePgDatabase<typeof schema> & { $client: pg.Pool };

/** A pool on the database the URL names; nothing is connected until the first query. */
export function openPostgres(url: string): PgDb {
  // bigint (int8) columns hold epoch-ms dates, ids and counts: read them as numbers, as SQLite gives them, so the
  // shared schema's decoders (new Date(ms), ...) work unchanged. Every value fits in 2^53.
  const types = { getTypeParser: (oid: number, format?: "text" | "binary") => (oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) };
  const pool = new pg.Pool({ connectionString: url, max: 4, types: types as pg.CustomTypesConfig });
  // An idle client whose server went away emits "error" on the pool; without a listener that ends the process.
  pool.on("error", () => {});
  return drizzle(pool, { schema }) as PgDb;
}

/** Applies the PostgreSQL migrations not applied yet (drizzle's journal in the drizzle schema). */
export async function migratePostgres(db: PgDb): Promise<void> {
  await migrate(db, { migrationsFolder: migrationsFolder("postgres") });
}

/** The migration level: how many of the dialect's migrations the database has recorded. */
export async function postgresMigrationLevel(db: PgDb): Promise<number> {
  const { rows } = await db.$client.query<{ n: string | null }>("SELECT to_regclass('drizzle.__drizzle_migrations')::text AS n");
  if (!rows[0]?.n) return 0;
  const counted = await db.$client.query<{ n: string }>("SELECT count(*) AS n FROM drizzle.__drizzle_migrations");
  return Number(counted.rows[0]!.n);
}

/** A URL fit to print: the password replaced. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(not a URL)";
  }
}
