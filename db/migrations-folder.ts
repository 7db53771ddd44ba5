// Where each dialect's migrations are, for the console, the CLI bundle and the tests.
import fs from "node:fs";
import path from "node:path";
import { repoRoot } from "../server/config";

/**
 * db/migrations/<dialect>: from the working folder (the console runs in the clone), else beside this module, as the
 * CLI bundle in dist/cli finds it from any folder a user runs `omniforge` in. The SQLite migrations moved into
 * their own folder unchanged: the migrator goes by each one's time and SQL, not its path, so an existing
 * console.db runs none of them again.
 */
export function migrationsFolder(dialect: "sqlite" | "postgres" = "sqlite"): string {
  const here = typeof import.meta.dirname === "string" ? import.meta.dirname : null;
  const candidates = [
    path.join(repoRoot(), "db", "migrations", dialect),
    ...(here ? [path.join(here, "migrations", dialect), path.join(here, "..", "..", "db", "migrations", dialect)] : []),
  ];
  return candidates.find((d) => fs.existsSync(path.join(/*turbopackIgnore: true*/ d, "meta", "_journal.json"))) ?? candidates[0]!;
}

/** How many migrations this version has for the dialect: the level a database it migrated is at. */
export function migrationsInJournal(dialect: "sqlite" | "postgres"): number {
  return (JSON.parse(fs.readFileSync(path.join(migrationsFolder(dialect), "meta", "_journal.json"), "utf8")) as { entries: unknown[] }).entries.length;
}
