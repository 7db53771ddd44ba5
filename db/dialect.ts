// Which database a Db is, for the few places that must differ (each says why where it asks). Services never ask:
// they use drizzle's awaited query builders, which both drivers serve over the same table objects of db/schema.
import { is, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import type pg from "pg";
import type { Db } from "./client";
import { postgresMigrationLevel } from "./postgres/client";

export type DbKind = "sqlite" | "postgres";

export function dbKind(db: Db): DbKind {
  // drizzle's is(), not instanceof: a server bundle may hold two copies of drizzle's classes.
  return is((db as unknown as { dialect: unknown }).dialect, SQLiteSyncDialect) ? "sqlite" : "postgres";
}

// JSON fields of a text column (the audit's details). Both schemas keep the column as text (one model for both), so
// SQLite reads a field with json_extract, as it always has, and PostgreSQL casts the text to jsonb and reads it with
// -> and ->>, guarded by the field's JSON type: a bare cast of a field of another type would fail the whole query.
// The key is written into the statement, not bound: PostgreSQL must see the same expression in a GROUP BY as in the
// select list, and two bound copies of one value are two different parameters to it.
const JSON_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

function jsonKey(key: string): { path: SQL; name: SQL; quoted: SQL } {
  if (!JSON_KEY.test(key)) throw new Error(`not a plain JSON key: ${key}`);
  return { path: sql.raw(`'$.${key}'`), name: sql.raw(`'${key}'`), quoted: sql.raw(`'"${key}"'`) };
}

// On PostgreSQL each read parses the row's text into jsonb (3-4 us a row on a loaded host: 80 ms for a week's 23,000
// activations at 1,000,000 rows, issue #38). A row whose text does not hold the key in quotes cannot have that field
// (the audit's details are JSON.stringify's output, which writes keys as they are), so it is answered as absent
// without the parse: most activations have no "count".
const parsedIfHolding = <T>(column: SQLWrapper, quoted: SQL, read: SQL): SQL<T> => sql<T>`(CASE WHEN strpos(${column}, ${quoted}) > 0 THEN ${read} END)`;

/** A string field of a JSON text column (null when absent, and on PostgreSQL when not a string). */
export function jsonText(db: Db, column: SQLWrapper, key: string): SQL<string | null> {
  const { path, name, quoted } = jsonKey(key);
  if (dbKind(db) === "sqlite") return sql`json_extract(${column}, ${path})`;
  return parsedIfHolding(column, quoted, sql`(CASE WHEN jsonb_typeof((${column})::jsonb -> ${name}) = 'string' THEN (${column})::jsonb ->> ${name} END)`);
}

/**
 * A number field of a JSON text column, or null when absent or of another type (a double on PostgreSQL, which its
 * driver returns as a JS number). SQLite's json_extract alone gave a string "7" as text, which SUM then added as 7.
 */
export function jsonNumber(db: Db, column: SQLWrapper, key: string): SQL<number | null> {
  const { path, name, quoted } = jsonKey(key);
  if (dbKind(db) === "sqlite") return sql`(CASE WHEN json_type(${column}, ${path}) IN ('integer', 'real') THEN json_extract(${column}, ${path}) END)`;
  return parsedIfHolding(column, quoted, sql`(CASE WHEN jsonb_typeof((${column})::jsonb -> ${name}) = 'number' THEN ((${column})::jsonb ->> ${name})::double precision END)`);
}

/** The pool under a PostgreSQL Db (null on SQLite). */
export function postgresPool(db: Db): pg.Pool | null {
  return dbKind(db) === "postgres" ? (db.$client as unknown as pg.Pool) : null;
}

/** Ascending with NULL first: SQLite's default, PostgreSQL's only when said (its default puts NULL last). */
export function ascNullsFirst(column: SQLWrapper): SQL {
  return sql`${column} asc nulls first`;
}

/**
 * The URL a PostgreSQL Db connects with (null on SQLite, whose file is the data home's): the playground's worker
 * process opens the console's own database with it, whatever its environment says.
 */
export function postgresUrl(db: Db): string | null {
  const pool = postgresPool(db);
  return (pool?.options as { connectionString?: string } | undefined)?.connectionString ?? null;
}

/** Whether the connection is still usable by this process (closed by closeDb, or a pool ended). */
export function isOpen(db: Db): boolean {
  const pool = postgresPool(db);
  if (pool) return !(pool as unknown as { ending: boolean; ended: boolean }).ending;
  return db.$client.open;
}

/**
 * One round trip to the database (the health probe's): its migration level when it answers, a throw when it does not.
 * A ping and the level were three statements a probe on PostgreSQL; the level's own query answers both.
 */
export async function ping(db: Db): Promise<number> {
  const pool = postgresPool(db);
  // Once more when the connection failed: after the database restarts, the pool may lend one it has not yet heard
  // is gone, and drops it when it fails. A database still down fails the second try at once too.
  if (pool) return postgresMigrationLevel({ $client: pool }).catch((e: unknown) => (databaseUnreachableMessage(e) ? postgresMigrationLevel({ $client: pool }) : Promise.reject(e)));
  return migrationLevel(db);
}

/** The migration level: how many of its dialect's migrations the database has recorded (drizzle's journal). */
export async function migrationLevel(db: Db): Promise<number> {
  const pool = postgresPool(db);
  if (pool) return postgresMigrationLevel({ $client: pool });
  const c = db.$client;
  const table = c.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get() as { n: number };
  if (!table.n) return 0;
  return (c.prepare("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number }).n;
}

// PostgreSQL's connection failures: the server is down, restarting, or unreachable. Their SQLSTATE classes 08
// (connection exception) and 57P (operator intervention: shutdown), and the socket's own errors. And 57014, a
// statement the server cancelled at the console's statement timeout (db/postgres/client.ts): to the person asking,
// the database did not answer in time, as when the client's own query timeout passed before the server had one.
const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EPIPE", "57P01", "57P02", "57P03", "57014"]);
// "Query read timeout": the pool's query timeout (db/postgres/client.ts), a database that stopped answering.
const UNREACHABLE_TEXT = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout/;

/**
 * When `err` (or what it wraps: drizzle wraps the driver's error) says the database cannot be reached, the one
 * message a person sees for it; else null. Never names the URL (it may hold a password).
 */
export function databaseUnreachableMessage(err: unknown): string | null {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    const message = (e as { message?: unknown }).message;
    const aggregate = (e as { errors?: unknown[] }).errors;
    if ((typeof code === "string" && (UNREACHABLE_CODES.has(code) || code.startsWith("08"))) || (typeof message === "string" && UNREACHABLE_TEXT.test(message)) || aggregate?.some((x) => databaseUnreachableMessage(x))) {
      return "The database does not answer; the console reconnects by itself when it is back. Try again shortly.";
    }
  }
  return null;
}
