// The console's stored policy for command-line use: `omniforge skill deploy|list` on a data home that has a
// console.db, or with the console's DATABASE_URL, resolve with the same policy and approvals as the console (read
// only: the CLI never migrates or writes the console's database to read it).
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import type { Db } from "../../../db/client";
import { ExistingDatabaseError, openExistingPostgres } from "../../../db/postgres/existing";
import { redactUrl } from "../../../db/postgres/client";
import { notARegularFile, sqliteProblem } from "../../../db/sqlite-file";
import * as schema from "../../../db/schema";
import type { RegistryPolicy } from "../../runtime/registry";
import { readDoctorPolicy, type DoctorPolicy } from "../doctor/policy";
import { effectivePolicy } from "./store";

/**
 * The effective policy of the console whose data home is `home`, or null when there is no console.db there.
 * `userId` is the console user whose personal layer is resolved (undefined for the CLI's own personal layer).
 * Throws with a readable message when the file exists but cannot be read.
 */
export async function policyFromHome(home: string, opts: { userId?: string; databaseUrl?: string } = {}): Promise<RegistryPolicy | null> {
  return readConsole(home, opts.databaseUrl, (db) => effectivePolicy(db, { userId: opts.userId ?? null }));
}

/** The console's doctor policy (gate and silenced checks), or null without a console.db or DATABASE_URL. */
export async function doctorPolicyFromHome(home: string, databaseUrl?: string): Promise<DoctorPolicy | null> {
  return readConsole(home, databaseUrl, (db) => readDoctorPolicy(db));
}

/**
 * Runs `read` on the console's database: PostgreSQL when the console's DATABASE_URL is given (as the console picks
 * it), else the home's console.db opened read-only; null when the home has none.
 */
async function readConsole<T>(home: string, databaseUrl: string | undefined, read: (db: Db) => Promise<T>): Promise<T | null> {
  if (databaseUrl) return readPostgres(databaseUrl, home, read);
  const file = path.join(path.resolve(home), "console.db");
  if (!fs.existsSync(file)) return null;
  // SQLite would wait forever in open() for a named pipe's writer.
  const kind = notARegularFile(file);
  if (kind) throw new Error(`cannot read the console policy from ${file}: it is ${kind}, not a database file`);
  let sqlite: Database.Database | undefined;
  try {
    sqlite = new Database(file, { readonly: true, fileMustExist: true });
    sqlite.pragma("busy_timeout = 5000");
    return await read(drizzle(sqlite, { schema }) as unknown as Db);
  } catch (e) {
    throw new Error(`cannot read the console policy from ${file}: ${sqliteProblem(e)}`);
  } finally {
    sqlite?.close();
  }
}

/** The same read on the console's PostgreSQL, opened as it is (never migrated), its pool ended after. */
async function readPostgres<T>(url: string, home: string, read: (db: Db) => Promise<T>): Promise<T> {
  let opened;
  try {
    opened = await openExistingPostgres(url, home, "read");
    return await read(opened.db);
  } catch (e) {
    // Its refusals start with the URL (password hidden); a failed read is named here.
    throw new Error(`cannot read the console policy from ${e instanceof ExistingDatabaseError ? e.message : `${redactUrl(url)}: ${(e as Error).message}`}`);
  } finally {
    await opened?.close();
  }
}
