// Both databases, migrated from their own folders, hold the same tables, columns, keys and indexes: the proof that
// the PostgreSQL schema derived from db/schema (derive.ts) and its generated migrations say what SQLite says.
import { getTableName, is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import { afterAll, expect, it } from "vitest";
import * as sqliteSchema from "../schema";
import { useTestPostgres } from "../test-support/postgres";
import { tempDb } from "../../server/test-support/temp-db";
import { describeNeeding, postgresql } from "../../server/test-support/needs";
import { migratePostgres, openPostgres, postgresMigrationLevel, type PgDb } from "./client";
import * as pgSchema from "./schema";

interface Shape {
  columns: Record<string, string[]>; // table -> "name notnull|null pk?"
  indexes: string[]; // "table.index(unique) on a,b"
  links: string[]; // "table.col -> other.col on delete cascade"
}

function sqliteShape(): Shape {
  const t = tempDb();
  try {
    const db = t.db.$client;
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' ORDER BY name")
      .pluck()
      .all() as string[];
    const columns: Shape["columns"] = {};
    const indexes: string[] = [];
    const links: string[] = [];
    for (const table of tables) {
      const info = db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string; notnull: number; pk: number }[];
      // SQLite lets a PRIMARY KEY column be null unless said otherwise; PostgreSQL never does. Both refuse it in practice.
      columns[table] = info.map((c) => `${c.name} ${c.notnull || c.pk ? "notnull" : "null"}${c.pk ? " pk" : ""}`).sort();
      const list = db.prepare(`PRAGMA index_list("${table}")`).all() as { name: string; unique: number; origin: string }[];
      for (const i of list.filter((i) => i.origin !== "pk")) {
        const cols = (db.prepare(`PRAGMA index_info("${i.name}")`).all() as { name: string }[]).map((c) => c.name);
        indexes.push(`${table}.${i.name}${i.unique ? "(unique)" : ""} on ${cols.join(",")}`);
      }
      const fks = db.prepare(`PRAGMA foreign_key_list("${table}")`).all() as { table: string; from: string; to: string; on_delete: string }[];
      for (const f of fks) links.push(`${table}.${f.from} -> ${f.table}.${f.to} on delete ${f.on_delete.toLowerCase()}`);
    }
    return { columns, indexes: indexes.sort(), links: links.sort() };
  } finally {
    t.cleanup();
  }
}

async function postgresShape(db: PgDb): Promise<Shape> {
  const cols = await db.$client.query<{ table_name: string; column_name: string; is_nullable: string; pk: boolean }>(`
    SELECT c.table_name, c.column_name, c.is_nullable,
      EXISTS (SELECT 1 FROM information_schema.key_column_usage k JOIN information_schema.table_constraints tc
              ON tc.constraint_name = k.constraint_name AND tc.constraint_type = 'PRIMARY KEY'
              WHERE k.table_name = c.table_name AND k.column_name = c.column_name) AS pk
    FROM information_schema.columns c WHERE c.table_schema = 'public'`);
  const columns: Shape["columns"] = {};
  for (const c of cols.rows) (columns[c.table_name] ??= []).push(`${c.column_name} ${c.is_nullable === "NO" ? "notnull" : "null"}${c.pk ? " pk" : ""}`);
  for (const list of Object.values(columns)) list.sort();
  const idx = await db.$client.query<{ table_name: string; index_name: string; unique: boolean; cols: string }>(`
    SELECT t.relname AS table_name, i.relname AS index_name, x.indisunique AS unique,
      (SELECT string_agg(a.attname, ',' ORDER BY k.n) FROM unnest(x.indkey) WITH ORDINALITY AS k(attnum, n)
         JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum) AS cols
    FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
    JOIN pg_namespace ns ON ns.oid = t.relnamespace
    WHERE ns.nspname = 'public' AND NOT x.indisprimary`);
  const indexes = idx.rows.map((i) => `${i.table_name}.${i.index_name}${i.unique ? "(unique)" : ""} on ${i.cols}`).sort();
  const fks = await db.$client.query<{ link: string }>(`
    SELECT k.table_name || '.' || k.column_name || ' -> ' || u.table_name || '.' || u.column_name || ' on delete ' || lower(r.delete_rule) AS link
    FROM information_schema.referential_constraints r
    JOIN information_schema.key_column_usage k ON k.constraint_name = r.constraint_name
    JOIN information_schema.constraint_column_usage u ON u.constraint_name = r.unique_constraint_name
    WHERE r.constraint_schema = 'public'`);
  const links = fks.rows.map((r) => r.link).sort();
  return { columns: Object.fromEntries(Object.entries(columns).sort(([a], [b]) => a.localeCompare(b))), indexes, links };
}

describeNeeding(postgresql(), "PostgreSQL schema derived from db/schema", () => {
  const postgres = useTestPostgres();
  const opened: PgDb[] = [];
  afterAll(async () => {
    for (const db of opened) await db.$client.end();
  });

  it("has, once migrated, every table, column, key, index and link the migrated SQLite database has", async () => {
    const db = openPostgres(await postgres.freshDatabase());
    opened.push(db);
    expect(await postgresMigrationLevel(db)).toBe(0);
    await migratePostgres(db);
    const sqlite = sqliteShape();
    expect(Object.keys(sqlite.columns).length).toBeGreaterThanOrEqual(13);
    expect(sqlite.indexes).toContain("users.users_email_unique(unique) on email");
    const pg = await postgresShape(db);
    expect(pg.columns).toEqual(sqlite.columns);
    expect(pg.indexes).toEqual(sqlite.indexes);
    expect(sqlite.links).toContain("auth_sessions.user_id -> users.id on delete cascade");
    expect(pg.links).toEqual(sqlite.links);
    // Applying again changes nothing: the level is the folder's migration count.
    await migratePostgres(db);
    expect(await postgresMigrationLevel(db)).toBeGreaterThan(0);
  }, 60_000);

  it("has a line in db/postgres/schema.ts for each table of db/schema", () => {
    const sqliteTables = Object.values(sqliteSchema).filter((v) => is(v, SQLiteTable)).map((t) => getTableName(t as SQLiteTable));
    const pgTables = Object.values(pgSchema).map((t) => getTableName(t));
    expect(pgTables.sort()).toEqual(sqliteTables.sort());
  });
});
