// The console's database as the command line opens it, the one door every command goes through to read console
// state or write audit rows (policy, token create, agent run, skill deploy, source, publish marketplace): PostgreSQL
// when DATABASE_URL is set, as the console picks it (openConsole), else <home>/console.db. Who opens it closes it
// with the close() it came with. A read opens it
// read-only and never migrates: `policy list` must not turn an empty or foreign file into a console database, nor
// need write access to look. A write needs the file to be there (the console makes it), a regular file, writable by
// this user; it migrates as the console would. Every failure is one line naming the file, what is wrong and what to
// do, never SQLite's or Node's bare message.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { openDb, schema, type Db } from "../../db/client";
import { ExistingDatabaseError, openExistingPostgres } from "../../db/postgres/existing";
import type { EnvSource } from "../../env";
import { notARegularFile, sqliteProblem } from "../../db/sqlite-file";
import { chainKeyProblem } from "../services/audit/key-fit";
import { PRIVATE_FILE_MODE } from "../domain/limits";
import { printable } from "./printable";

/** A console database that cannot be used as asked; the message is the line to print. */
export class ConsoleDbError extends Error {}

/** <home>/console.db, opened to read (read-only, as it is) or to write (migrated, kept private). */
export function openConsoleDb(home: string, access: "read" | "write"): Db {
  const file = path.join(path.resolve(home), "console.db");
  const refuse = (why: string) => new ConsoleDbError(`${printable(file)}: ${why}`);
  if (!fs.existsSync(file)) {
    // The usual cause is not a console never started: `npm start` keeps its data in the clone, apart from ~/.omniforge.
    throw new ConsoleDbError(
      `no console database at ${printable(file)}: the console keeps it in its data home (OMNIFORGE_HOME; .omniforge-data in the ` +
        "console's clone by default), not the command line's: pass that folder as --home or OMNIFORGE_HOME",
    );
  }
  const kind = notARegularFile(file);
  if (kind) throw refuse(`it is ${kind}, not a database file`);
  if (access === "write") {
    try {
      fs.accessSync(file, fs.constants.R_OK | fs.constants.W_OK);
    } catch {
      throw refuse(`this user may not change it: run the command as the user the console runs as`);
    }
    keepPrivate(file);
    // Checked as a read first: migrating would turn an empty or another program's database into a console's.
    closeConsoleDb(openToRead(file, refuse));
    try {
      return openDb(file);
    } catch (e) {
      throw refuse(sqliteProblem(e));
    }
  }
  return openToRead(file, refuse);
}

/** The console's database, where it is, and how to let it go (a PostgreSQL pool must end for the command to exit). */
export interface ConsoleDatabase {
  db: Db;
  /** console.db's path, or the URL with its password as ***. */
  where: string;
  close(): Promise<void>;
}

/**
 * The console's database as the console picks it: PostgreSQL when DATABASE_URL is set (never migrated from here),
 * else <home>/console.db (openConsoleDb).
 */
export async function openConsole(home: string, access: "read" | "write", env: EnvSource): Promise<ConsoleDatabase> {
  const url = await consoleDatabaseUrl(env);
  if (!url) {
    const db = openConsoleDb(home, access);
    // A read has a connection of its own; a write has the process's one (openDb), which others may hold too.
    return { db, where: path.join(path.resolve(home), "console.db"), close: async () => (access === "read" ? closeConsoleDb(db) : undefined) };
  }
  let opened: ConsoleDatabase;
  try {
    opened = await openExistingPostgres(url, home, access);
  } catch (e) {
    throw e instanceof ExistingDatabaseError ? new ConsoleDbError(e.message) : e;
  }
  // console.db sits in its data home beside the keys; a URL can be used from any folder, so a writer checks first.
  if (access === "read") return opened;
  let problem: string | null;
  try {
    problem = await chainKeyProblem(opened.db, "run the command with the console's data home (--home or OMNIFORGE_HOME), the folder its servers share");
  } catch (e) {
    await opened.close();
    throw e;
  }
  if (problem) {
    await opened.close();
    throw new ConsoleDbError(`${opened.where}: ${problem}`);
  }
  return opened;
}

/**
 * The console's database for a command whose audit is the console's only when there is a console (source,
 * publish marketplace, skill deploy, agent run): openConsole when DATABASE_URL is set or the home has a console.db,
 * else null (the command works on the data home alone). Never a console.db beside a console on PostgreSQL.
 */
export async function openConsoleIfAny(home: string, access: "read" | "write", env: EnvSource): Promise<ConsoleDatabase | null> {
  if (!(await consoleDatabaseUrl(env)) && !fs.existsSync(path.join(path.resolve(home), "console.db"))) return null;
  return openConsole(home, access, env);
}

/**
 * Runs `read` on the console's database opened to read (openConsoleIfAny), then closes it; null when there is no
 * console. The skill commands read the console's policy and doctor settings this way. A refusal or a failed read
 * is one line, "cannot read the console policy from <where>: <why>".
 */
export async function readConsole<T>(home: string, env: EnvSource, read: (db: Db) => Promise<T>): Promise<{ value: T; where: string } | null> {
  let opened: ConsoleDatabase | null;
  try {
    opened = await openConsoleIfAny(home, "read", env);
  } catch (e) {
    // A DATABASE_URL that is not one says so with the setting's own line.
    throw e instanceof ConsoleDbError ? new Error(`cannot read the console policy from ${e.message}`) : e;
  }
  if (!opened) return null;
  try {
    return { value: await read(opened.db), where: opened.where };
  } catch (e) {
    throw new Error(`cannot read the console policy from ${opened.where}: ${sqliteProblem(e)}`);
  } finally {
    await opened.close();
  }
}

/**
 * The console's DATABASE_URL when set, checked as the console checks it (a wrong one is refused with one line). The
 * settings module is loaded only then: a plain `skill list` does not pay for it.
 */
async function consoleDatabaseUrl(env: EnvSource | undefined): Promise<string | undefined> {
  if (!env?.DATABASE_URL) return undefined;
  const { setting } = await import("../../env");
  return setting("DATABASE_URL", env);
}

/** Closes a database openConsoleDb opened (the connection is the driver's, so is closing it). */
function closeConsoleDb(db: Db): void {
  db.$client.close();
}

function openToRead(file: string, refuse: (why: string) => ConsoleDbError): Db {
  let sqlite: Database.Database | undefined;
  try {
    sqlite = new Database(file, { readonly: true, fileMustExist: true });
    sqlite.pragma("busy_timeout = 5000");
    // Read now: a damaged file or one without the console's tables says so here, not as a failed query later.
    const made = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
    if (!made) throw refuse("holds no console data (an empty or foreign database): start the console once with this data home");
    return drizzle(sqlite, { schema }) as unknown as Db;
  } catch (e) {
    sqlite?.close();
    throw e instanceof ConsoleDbError ? e : refuse(sqliteProblem(e));
  }
}

/**
 * SQLite gives the WAL and shared-memory files it makes the database's mode: a console.db left readable by others
 * (a copy, an older version) would have its audit and password hashes written into files as open. Tightened first,
 * with any WAL files already there, as the console does at start (server/config.ts), when they are this user's.
 */
function keepPrivate(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      const st = fs.lstatSync(f);
      if (st.isFile() && st.mode & 0o777 & ~PRIVATE_FILE_MODE && st.uid === process.getuid?.()) fs.chmodSync(f, PRIVATE_FILE_MODE);
    } catch {
      // missing, or not changed: SQLite still works, as loose as the file was left
    }
  }
}
