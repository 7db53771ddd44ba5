// Queries are awaited (#38): drizzle's builders are awaitable on SQLite and PostgreSQL alike, but a query ended with
// .all(), .get() or .run(), a prepared one run with .get({...}), the driver's $client and db.transaction() with a
// synchronous callback exist on better-sqlite3 alone. Product code keeps to the awaited form so the same services can
// run on either database; the few files below are the places that know which driver they hold, each saying why.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

import { repoRoot as repo, sourceFiles } from "../server/test-support/source-files";

const DIALECT_AWARE: Record<string, string> = {
  "db/client.ts": "opens SQLite",
  "db/transaction.ts": "the one place a transaction differs between the drivers",
  "db/raw.ts": "the one place a statement the builder cannot express differs between the drivers",
  "server/services/audit/writer.ts": "rewritten per database by the step that opens PostgreSQL",
  "server/services/audit/retention.ts": "rewritten per database by the step that opens PostgreSQL",
  "server/services/audit/retention-job.ts": "rewritten per database by the step that opens PostgreSQL",
  "server/services/audit/keys.ts": "rewritten per database by the step that opens PostgreSQL",
  "server/services/health.ts": "its database check is rewritten per database by the step that opens PostgreSQL",
  "server/cli/console-db.ts": "checks console.db as a SQLite file before it is used",
  "server/cli/commands/db-copy.ts": "reads a SQLite console to copy it into PostgreSQL",
  "server/cli/commands/db-copy-tables.ts": "reads a SQLite console to copy it into PostgreSQL",
  "scripts/bench/audit.ts": "checkpoints SQLite's WAL before it measures the file",
  "scripts/bench/db-copy.ts": "checkpoints SQLite's WAL before it measures the file",
  "scripts/bench.ts": "calls each benchmark module's run(), not a query",
  "db/dialect.ts": "the one place that asks which database a Db is (kind, pool, ping, migration level)",
  "server/services/audit/chain-store.ts": "the audit append per database: prepared statements under BEGIN IMMEDIATE on SQLite, one locked transaction on PostgreSQL",
};
const DIALECT_AWARE_DIRS = ["db/postgres/"];

const SYNC_QUERY: { what: string; re: RegExp }[] = [
  { what: "a query ended synchronously", re: /\.(all|get|run)(<[^>]*>)?\(\s*\)/ },
  { what: "a prepared query run synchronously", re: /\.(all|get)\(\s*\{/ },
  { what: "a synchronous raw statement", re: /\b(db|tx)\.(all|get|run|values)\s*[<(]/ },
  { what: "the driver's own client", re: /\$client\b/ },
  { what: "a driver transaction (use inTransaction)", re: /\.transaction\(/ },
];

/** "file:line: what: the line" for each synchronous query in `text` (comment lines are skipped). */
function syncQueries(file: string, text: string): string[] {
  return text.split("\n").flatMap((line, i) => {
    if (/^\s*(\/\/|\*|\/\*)/.test(line)) return [];
    const hit = SYNC_QUERY.find((r) => r.re.test(line));
    return hit ? [`${file}:${i + 1}: ${hit.what}: ${line.trim().slice(0, 120)}`] : [];
  });
}

const exempt = (rel: string) => rel in DIALECT_AWARE || DIALECT_AWARE_DIRS.some((d) => rel.startsWith(d));

describe("awaited queries", () => {
  it("tells a synchronous query from an awaited one", () => {
    const sample = [
      "const row = db.select().from(users).where(eq(users.id, id)).get();",
      "    .all();",
      "db.insert(users).values(row).run();",
      "const r = sessionRow(db).get({ sid });",
      "return db.all<{ v: string }>(sql`SELECT 1`);",
      "db.$client.prepare('SELECT 1');",
      "const { before } = db.transaction(() => read(db));",
      "// a comment may name .all() and $client",
      "const row = (await db.select().from(users).limit(1))[0];",
      "await db.insert(users).values({ id });",
      "const r = (await sessionRow(db).execute({ sid }))[0];",
      "const e = byName.get(name); for (const v of map.values()) void v;",
      "await inTransaction(db, async (tx) => tx.delete(users));",
    ].join("\n");
    expect(syncQueries("x.ts", sample).map((h) => h.split(":")[1])).toEqual(["1", "2", "3", "4", "5", "6", "7"]);
  });

  it("finds none in product code outside the files that know their driver", () => {
    const files = ["server", "app", "scripts", "db"]
      .flatMap((d) => sourceFiles(d, { tests: false }))
      .map((f) => f.split(path.sep).join("/"))
      .filter((f) => !f.includes("/test-support/"));
    expect(files).toContain("server/services/users/users.ts"); // the walk reached the services
    for (const f of Object.keys(DIALECT_AWARE)) expect(fs.existsSync(path.join(repo, f)), `${f} is listed but gone`).toBe(true);
    const hits = files.filter((f) => !exempt(f)).flatMap((f) => syncQueries(f, fs.readFileSync(path.join(repo, f), "utf8")));
    expect(hits).toEqual([]);
  });
});
