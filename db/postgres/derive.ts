// The PostgreSQL tables are derived from the SQLite ones in db/schema, not written a second time: db/schema stays
// the one model (a column, index or link added there appears here and in the next generated PostgreSQL migration),
// and the test beside this file holds both databases' migrated schemas to the same tables, columns and indexes.
// Integers become bigint (epoch ms and row ids outgrow int4), SQLite's 0/1 booleans real booleans, epoch-ms dates stay
// epoch-ms bigints read as Date, AUTOINCREMENT ids identity columns. A construct this mapping does not know throws,
// so a schema change that needs a decision here cannot slip through as a silent difference.
import { getTableColumns, is, SQL, sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  customType,
  doublePrecision,
  foreignKey,
  index,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  type AnyPgColumn,
  type PgColumnBuilderBase,
  type PgTableWithColumns,
} from "drizzle-orm/pg-core";
import { getTableConfig, type SQLiteColumn, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { epochMsNow } from "../schema/columns";

/** A Date kept as epoch ms in a bigint, as SQLite's timestamp_ms columns keep it, so a copied row needs no conversion. */
const epochMsDate = customType<{ data: Date; driverData: string | number }>({
  dataType: () => "bigint",
  toDriver: (d) => d.getTime(),
  fromDriver: (v) => new Date(Number(v)),
});

const pgEpochMsNow = sql`(extract(epoch from now()) * 1000)::bigint`;

// Typed loosely: the tables are made at run time from the SQLite ones. The step that opens the console on PostgreSQL types them per table.
export type DerivedPgTable = PgTableWithColumns<any>;

const derived = new Map<SQLiteTable, DerivedPgTable>();

type Column = SQLiteColumn & { autoIncrement?: boolean; enumValues?: string[]; config?: { mode?: string } };

function columnBuilder(table: string, col: Column): PgColumnBuilderBase {
  const where = `${table}.${col.name}`;
  switch (col.columnType) {
    case "SQLiteText":
      return col.enumValues?.length ? text(col.name, { enum: col.enumValues as [string, ...string[]] }) : text(col.name);
    case "SQLiteReal":
      return doublePrecision(col.name);
    case "SQLiteBoolean":
      return boolean(col.name);
    case "SQLiteTimestamp":
      if ((col as { mode?: string }).mode !== "timestamp_ms" && col.config?.mode !== "timestamp_ms") throw new Error(`${where}: only timestamp_ms dates have a PostgreSQL form`);
      return epochMsDate(col.name);
    case "SQLiteInteger": {
      const b = bigint(col.name, { mode: "number" });
      return col.autoIncrement ? b.generatedByDefaultAsIdentity() : b;
    }
    default:
      throw new Error(`${where}: no PostgreSQL form for ${col.columnType}`);
  }
}

function withConstraints(table: string, col: Column): PgColumnBuilderBase {
  // The builders' chain methods return the same builder; typed loosely here because each kind is a different class.
  let b = columnBuilder(table, col) as unknown as {
    primaryKey(): unknown;
    notNull(): unknown;
    unique(name?: string): unknown;
    default(v: unknown): unknown;
  };
  if (col.primary) b = b.primaryKey() as typeof b;
  else if (col.notNull) b = b.notNull() as typeof b;
  if (col.isUnique) b = b.unique(col.uniqueName) as typeof b;
  if (col.hasDefault && col.default !== undefined) {
    if (col.default === epochMsNow) b = b.default(pgEpochMsNow) as typeof b;
    else if (is(col.default, SQL)) throw new Error(`${table}.${col.name}: an SQL default needs its PostgreSQL form in db/postgres/derive.ts`);
    else b = b.default(col.default) as typeof b;
  }
  return b as unknown as PgColumnBuilderBase;
}

/** The PostgreSQL table for one SQLite table of db/schema (the same object each time it is asked). */
export function toPostgres(source: SQLiteTable): DerivedPgTable {
  const cached = derived.get(source);
  if (cached) return cached;
  const cfg = getTableConfig(source);
  if (cfg.checks.length || cfg.uniqueConstraints.length) {
    throw new Error(`${cfg.name}: checks and table-level unique constraints need a PostgreSQL form in db/postgres/derive.ts`);
  }
  // Keyed by the same property names as the SQLite table, so one query reads the same on both.
  const byKey = Object.entries(getTableColumns(source));
  const keyOf = new Map(byKey.map(([key, c]) => [c.name, key]));
  const columns = Object.fromEntries(byKey.map(([key, c]) => [key, withConstraints(cfg.name, c as Column)]));
  const table = pgTable(cfg.name, columns, (t) => {
    const col = (c: { name: string }) => t[keyOf.get(c.name)!] as AnyPgColumn;
    return [
      // A composite key (user_identities: issuer + subject) keeps its columns; drizzle-kit names it on both sides.
      ...cfg.primaryKeys.map((pk) => primaryKey({ columns: pk.columns.map((c) => col(c)) as [AnyPgColumn, ...AnyPgColumn[]] })),
      ...cfg.indexes.map((i) => {
        if (i.config.where) throw new Error(`${cfg.name}.${i.config.name}: partial indexes need a PostgreSQL form`);
        const cols = i.config.columns.map((c) => col(c as { name: string })) as [AnyPgColumn, ...AnyPgColumn[]];
        return (i.config.unique ? uniqueIndex : index)(i.config.name).on(...cols);
      }),
      ...cfg.foreignKeys.map((fk) => {
        const ref = fk.reference();
        const target = toPostgres(ref.foreignTable);
        const link = foreignKey({
          name: fk.getName(),
          columns: ref.columns.map(col) as [AnyPgColumn, ...AnyPgColumn[]],
          foreignColumns: ref.foreignColumns.map((c) => (Object.values(getTableColumns(target)) as AnyPgColumn[]).find((p) => p.name === c.name)!) as [AnyPgColumn, ...AnyPgColumn[]],
        });
        if (fk.onDelete) link.onDelete(fk.onDelete);
        if (fk.onUpdate) link.onUpdate(fk.onUpdate);
        return link;
      }),
    ];
  });
  derived.set(source, table);
  return table;
}
