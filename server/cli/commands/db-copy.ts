// `omniforge db copy --to postgres://... [--home DIR]`: moves a console from its console.db into an empty PostgreSQL
// database. The target is migrated to the current level first and refused in one line when any table of it holds a
// row; the rows go over in one transaction (db-copy-tables.ts), are counted on both sides, and the audit chain is
// verified on the PostgreSQL side (db-copy-chain.ts). The source is only read. The URL's password is never printed.
import { setting, SETTINGS } from "../../../env";
import { migrationsInJournal } from "../../../db/migrations-folder";
import { migratePostgres, openPostgres, postgresMigrationLevel, redactUrl, type PgDb } from "../../../db/postgres/client";
import { parseCommand, stringFlags } from "../args";
import { ConsoleDbError, openConsoleDb } from "../console-db";
import { errorLine } from "../error-line";
import type { CliIO } from "../io";
import { verifyCopiedChain } from "./db-copy-chain";
import { copyTables, nonEmptyTables } from "./db-copy-tables";
import { configFrom } from "./skill-list";

export const summary = "Copy the console's database (console.db) into an empty PostgreSQL database and verify its audit chain";

const USAGE = `usage: omniforge db copy [--to postgres://USER:PASSWORD@HOST:PORT/DATABASE] [--home DIR]
  copies every table of <home>/console.db into the PostgreSQL database (DATABASE_URL when --to is not given),
  which must be empty: it is migrated to the current level, filled in one transaction, and its audit chain is
  verified with the data home's keys. console.db is only read; the console may keep running meanwhile.
`;


export async function run(args: string[], io: CliIO): Promise<number> {
  const cmd = parseCommand("db copy", USAGE, args, { help: { type: "boolean", short: "h" }, ...stringFlags("home", "to") }, io, { noArguments: true });
  if (typeof cmd === "number") return cmd;
  const { values, fail: usage } = cmd;
  let to: string | undefined;
  let home: string;
  try {
    to = values.to ?? setting("DATABASE_URL", io.env);
    home = configFrom({ home: values.home }, io).home;
  } catch (e) {
    return usage(e as Error);
  }
  if (!to) return usage("name the target with --to postgres://... (or set DATABASE_URL)");
  // --to is checked as DATABASE_URL is: an unencoded password otherwise reached pg as "Invalid URL" and nothing more.
  const checked = values.to === undefined ? null : SETTINGS.DATABASE_URL.safeParse(values.to);
  if (checked && !checked.success) return usage(`--to ${checked.error.issues[0]?.message ?? "must be a postgres:// URL"}`);
  const fail = (line: string) => (io.err(`omniforge db copy: ${line}\n`), 1);

  let source;
  try {
    source = openConsoleDb(home, "read");
  } catch (e) {
    return fail(e instanceof ConsoleDbError ? e.message : errorLine(e));
  }
  const sqlite = source.$client;
  const target = openPostgres(to);
  const where = redactUrl(to);
  try {
    const level = (sqlite.prepare("SELECT count(*) FROM __drizzle_migrations").pluck().get() as number) ?? 0;
    const wanted = migrationsInJournal("sqlite");
    if (level !== wanted) {
      return fail(`console.db is at migration ${level} of this version's ${wanted}: start this version's console on it once, then copy`);
    }
    return await copyInto(target, where, sqlite, home, io, fail);
  } finally {
    sqlite.close();
    await target.$client.end();
  }
}

async function copyInto(target: PgDb, where: string, sqlite: import("better-sqlite3").Database, home: string, io: CliIO, fail: (l: string) => number): Promise<number> {
  let client;
  try {
    client = await target.$client.connect();
  } catch (e) {
    return fail(`cannot reach ${where}: ${errorLine(e)}`);
  }
  try {
    const full = await nonEmptyTables(client);
    if (full.length) return fail(`${where} is not empty (rows in ${full.slice(0, 5).join(", ")}${full.length > 5 ? ` and ${full.length - 5} more` : ""}): copy into an empty database`);
    await migratePostgres(target);
    const level = await postgresMigrationLevel(target);
    const wanted = migrationsInJournal("postgres");
    if (level !== wanted) return fail(`${where} is at PostgreSQL migration ${level}, this version has ${wanted}: copy into a database this version migrates`);
    io.out(`copying ${home}/console.db into ${where}\n`);
    // One snapshot of the source, one transaction on the target: all rows or none.
    sqlite.exec("BEGIN");
    await client.query("BEGIN");
    let copied;
    try {
      copied = await copyTables(sqlite, client, (t) => io.out(`  ${t.table}: ${t.rows} rows\n`));
      await client.query("COMMIT");
    } catch (e) {
      await client.query("ROLLBACK").catch(() => {});
      return fail(`the copy failed and nothing was kept in ${where}: ${errorLine(e)}`);
    } finally {
      sqlite.exec("COMMIT");
    }
    for (const t of copied) {
      const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${t.table}"`);
      if (Number(rows[0]!.n) !== t.rows) return fail(`${t.table} holds ${rows[0]!.n} rows in ${where}, ${t.rows} were copied`);
    }
  } catch (e) {
    return fail(`${where}: ${errorLine(e)}`);
  } finally {
    client.release();
  }
  const chain = await verifyCopiedChain(target, home);
  if (!chain.ok) return fail(`the audit chain does not verify in ${where}: ${chain.message}`);
  io.out(`audit chain verified in ${where}: ${chain.count} rows intact, head ${chain.head.slice(0, 16)}…, ${chain.checkpoints} signed checkpoints matching\n`);
  return 0;
}
