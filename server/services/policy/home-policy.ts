// The console's stored policy for command-line use: `omniforge skill deploy|list` on a data home that has a
// console.db resolve with the same policy and approvals as the console (read-only: the CLI never migrates or
// writes the console's database to read it).
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import type { Db } from "../../../db/client";
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
export async function policyFromHome(home: string, opts: { userId?: string } = {}): Promise<RegistryPolicy | null> {
  return readConsole(home, (db) => effectivePolicy(db, { userId: opts.userId ?? null }));
}

/** The console's doctor policy (gate and silenced checks), or null without a console.db. */
export async function doctorPolicyFromHome(home: string): Promise<DoctorPolicy | null> {
  return readConsole(home, (db) => readDoctorPolicy(db));
}

/** Runs `read` on the console's database opened read-only; null when the home has none. */
async function readConsole<T>(home: string, read: (db: Db) => Promise<T>): Promise<T | null> {
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
