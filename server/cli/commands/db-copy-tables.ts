// The table copy of `omniforge db copy`: every table of db/schema, parents before the rows that link to them, read
// from one read snapshot of console.db and written to PostgreSQL in one transaction, so a failure leaves the target
// as empty as it was. Rows stream through in batches (a 1M-row audit is never held in memory). Values need no
// conversion: the PostgreSQL schema keeps SQLite's epoch-ms integers, and takes its 0/1 for booleans.
import type Database from "better-sqlite3";
import { getTableName, is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import type pg from "pg";
import * as sqliteSchema from "../../../db/schema";

/** Bind parameters per INSERT (PostgreSQL allows 65535) and bytes of text per batch, whichever comes first. */
const BATCH_PARAMS = 20_000;
const BATCH_BYTES = 16 * 1024 * 1024;

export interface CopiedTable {
  table: string;
  rows: number;
}

interface TableSpec {
  name: string;
  columns: string[];
  parents: string[];
  identity: boolean;
}

/** Every table of the model, each after the tables it links to. */
export function tablesInCopyOrder(): TableSpec[] {
  const specs = new Map<string, TableSpec>();
  for (const t of (Object.values(sqliteSchema) as unknown[]).filter((v): v is SQLiteTable => is(v, SQLiteTable))) {
    const cfg = getTableConfig(t);
    specs.set(cfg.name, {
      name: cfg.name,
      columns: cfg.columns.map((c) => c.name),
      parents: cfg.foreignKeys.map((f) => getTableName(f.reference().foreignTable)).filter((p) => p !== cfg.name),
      identity: cfg.columns.some((c) => c.primary && (c as { autoIncrement?: boolean }).autoIncrement),
    });
  }
  const ordered: TableSpec[] = [];
  const placed = new Set<string>();
  const place = (s: TableSpec) => {
    if (placed.has(s.name)) return;
    placed.add(s.name);
    for (const p of s.parents) place(specs.get(p)!);
    ordered.push(s);
  };
  [...specs.values()].sort((a, b) => a.name.localeCompare(b.name)).forEach(place);
  return ordered;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

function insertSql(spec: TableSpec, rowCount: number): string {
  const n = spec.columns.length;
  const tuples = Array.from({ length: rowCount }, (_, r) => `(${spec.columns.map((_, c) => `$${r * n + c + 1}`).join(",")})`);
  return `INSERT INTO ${quote(spec.name)} (${spec.columns.map(quote).join(",")}) VALUES ${tuples.join(",")}`;
}

const sizeOf = (v: unknown) => (typeof v === "string" ? v.length : v instanceof Buffer ? v.length : 8);

/**
 * Copies every row. `sqlite` is read inside one transaction (a snapshot, while the console may go on writing);
 * `client` is a connection the caller has opened a transaction on. Reports each table as it is done.
 */
export async function copyTables(sqlite: Database.Database, client: pg.ClientBase, onTable: (t: CopiedTable) => void): Promise<CopiedTable[]> {
  const done: CopiedTable[] = [];
  for (const spec of tablesInCopyOrder()) {
    const perBatch = Math.max(1, Math.floor(BATCH_PARAMS / spec.columns.length));
    const rows = sqlite.prepare(`SELECT ${spec.columns.map(quote).join(",")} FROM ${quote(spec.name)} ORDER BY rowid`).raw().iterate() as IterableIterator<unknown[]>;
    let batch: unknown[][] = [];
    let bytes = 0;
    let count = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      await client.query(insertSql(spec, batch.length), batch.flat());
      count += batch.length;
      batch = [];
      bytes = 0;
    };
    for (const row of rows) {
      batch.push(row);
      bytes += row.reduce<number>((s, v) => s + sizeOf(v), 0);
      if (batch.length >= perBatch || bytes >= BATCH_BYTES) await flush();
    }
    await flush();
    // Ids were copied as they are: the identity goes on after the highest, so the next row never reuses one.
    if (spec.identity && count > 0) {
      await client.query(`SELECT setval(pg_get_serial_sequence($1, 'id'), (SELECT max(id) FROM ${quote(spec.name)}))`, [spec.name]);
    }
    const t = { table: spec.name, rows: count };
    done.push(t);
    onTable(t);
  }
  return done;
}

/** Tables of the target that hold rows (any table of its public schema, ours or not): a copy goes only into an empty database. */
export async function nonEmptyTables(client: pg.ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name",
  );
  const full: string[] = [];
  for (const { table_name } of rows) {
    const r = await client.query(`SELECT 1 FROM public.${quote(table_name)} LIMIT 1`);
    if (r.rowCount) full.push(table_name);
  }
  return full;
}
