// The console's PostgreSQL as another program opens it (the command line, with the console's DATABASE_URL): never
// migrated from here, so it must already hold the console's tables, and to be written, be at this version's level.
// Every refusal is one line that names the database with the URL's password as ***.
import { postgresDb, type Db } from "../client";
import { databaseUnreachableMessage, migrationLevel, postgresPool } from "../dialect";
import { migrationsInJournal } from "../migrations-folder";
import { redactUrl } from "./client";

export class ExistingDatabaseError extends Error {}

export interface ExistingDatabase {
  db: Db;
  /** The URL with its password as ***. */
  where: string;
  /** Ends the pool (a command does not exit while its pool holds connections). */
  close(): Promise<void>;
}

/** Opens it and checks its level; a database that does not answer is refused within the pool's connect timeout. */
export async function openExistingPostgres(url: string, home: string, access: "read" | "write"): Promise<ExistingDatabase> {
  const db = postgresDb(url, home);
  const where = redactUrl(url);
  const close = () => postgresPool(db)!.end();
  let level: number;
  try {
    level = await migrationLevel(db);
  } catch (e) {
    await close();
    throw new ExistingDatabaseError(`${where}: ${databaseUnreachableMessage(e) ? "the database does not answer (refused, unknown host or no answer within the connect timeout)" : (e as Error).message}`);
  }
  const wanted = migrationsInJournal("postgres");
  const why =
    level === 0
      ? "holds no console data (no migrations applied): start the console once with this DATABASE_URL"
      : access === "write" && level !== wanted
        ? `is at PostgreSQL migration ${level}, this version has ${wanted}: start this version's console on it once`
        : null;
  if (why) {
    await close();
    throw new ExistingDatabaseError(`${where}: ${why}`);
  }
  return { db, where, close };
}
