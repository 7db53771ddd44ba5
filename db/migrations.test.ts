// The SQLite migrations moved to db/migrations/sqlite. drizzle's migrator skips a migration when console.db has
// recorded one at least as new, and it matches by creation time and SQL hash, never by path. So existing consoles
// run none of them again, as long as their text and times stay exactly what those consoles recorded. The pairs below
// were read from a console.db made before the move.
import { readMigrationFiles } from "drizzle-orm/migrator";
import { expect, it } from "vitest";
import { migrationsFolder } from "./client";
import { tempDb } from "../server/test-support/temp-db";

const RECORDED = [
  [1795320076111, "30204580925b"],
  [1795320595742, "371eb3fb4d5b"],
  [1795332479922, "21151e78ffb6"],
  [1795617602718, "a2760b98aa58"],
  [1795618901309, "78dc928c303d"],
  [1795619338547, "925aa37dcd04"],
  [1795620129225, "0ab1e1aed63f"],
  [1795620726680, "37c679db545f"],
  [1795626696719, "75cb317d34d5"],
  [1795630558909, "ad8cfbece5e7"],
];

it("keeps the SQLite migrations an existing console.db recorded, unchanged, and a new one records the same", () => {
  const files = readMigrationFiles({ migrationsFolder: migrationsFolder("sqlite") });
  expect(files.slice(0, RECORDED.length).map((m) => [m.folderMillis, m.hash.slice(0, 12)])).toEqual(RECORDED);
  const t = tempDb();
  try {
    const rows = t.db.$client.prepare("SELECT created_at, hash FROM __drizzle_migrations ORDER BY created_at").raw().all() as [number, string][];
    expect(rows.slice(0, RECORDED.length).map(([at, hash]) => [at, hash.slice(0, 12)])).toEqual(RECORDED);
  } finally {
    t.cleanup();
  }
});

it("finds each dialect's migrations in its own folder", () => {
  expect(migrationsFolder("sqlite")).toMatch(/db\/migrations\/sqlite$/);
  expect(migrationsFolder("postgres")).toMatch(/db\/migrations\/postgres$/);
  expect(readMigrationFiles({ migrationsFolder: migrationsFolder("postgres") }).length).toBeGreaterThan(0);
});
