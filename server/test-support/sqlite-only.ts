// A test of SQLite itself (its file, its write counter) has nothing to check on PostgreSQL: under
// OMNIFORGE_TEST_DATABASE=postgres it is skipped with the reason in its title, which `npm test` lists beside its
// count. Not a need of the machine (needs.ts): CI skips it too, since the other database cannot meet it.
import { it } from "vitest";
import { testDatabaseIsPostgres } from "../../db/test-support/postgres-run";
import { skipMark } from "./skip-mark";

/** it() on SQLite; on PostgreSQL skipped, saying why it applies to SQLite only. */
export function itOnSqlite(reason: string, title: string, fn: () => unknown, timeout?: number): void {
  if (!testDatabaseIsPostgres()) it(title, fn, timeout);
  else it.skip(`${title} ${skipMark("SQLite", reason)}`, fn);
}
