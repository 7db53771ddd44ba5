// The postgres part of npm test runs every test file that opens a database; the ones it leaves on SQLite must be
// real database test files with a reason, so a renamed or deleted file cannot linger in the list unnoticed.
import { describe, expect, it } from "vitest";
import { databaseTestFiles, postgresTestFiles, SQLITE_ONLY } from "./test-pg";

describe("which test files run on PostgreSQL", () => {
  it("every SQLite-only entry is a test file that opens a database, with its reason", () => {
    const all = databaseTestFiles();
    for (const [file, why] of Object.entries(SQLITE_ONLY)) {
      expect(all, file).toContain(file);
      expect(why.length, file).toBeGreaterThan(20);
    }
  });

  it("runs the rest, services and routers alike, and none of the SQLite-only ones", () => {
    const run = postgresTestFiles();
    expect(run).toEqual(expect.arrayContaining(["server/services/audit/tamper.test.ts", "server/api/routers/overview/overview.test.ts", "server/auth.test.ts"]));
    expect(run.filter((f) => f in SQLITE_ONLY)).toEqual([]);
    expect(run.length + Object.keys(SQLITE_ONLY).length).toBe(databaseTestFiles().length);
  });
});
