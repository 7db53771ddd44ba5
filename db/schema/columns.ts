// Column builders the tables share. Most columns are required, so `required.text("name")` says NOT NULL once
// instead of a `.notNull()` on every line; a column that may be empty is written with drizzle's own builder.
// The SQL names stay spelled out: they are what the migrations and the raw SQL of the services use.
import { sql } from "drizzle-orm";
import { integer, real, text, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";

/** The integer row id SQLite assigns (AUTOINCREMENT: ids are never reused, so links to old rows stay wrong-proof). */
export const rowId = () => integer("id").primaryKey({ autoIncrement: true });

export const required = {
  text: (name: string) => text(name).notNull(),
  integer: (name: string) => integer(name).notNull(),
  real: (name: string) => real(name).notNull(),
};

/** A skill definition's key: historyKey(ref) as JSON ({layer, ownerId, plugin, skill}), so rows follow the folder. */
export const skillKey = () => required.text("skill_key");

/** A required link to the row this one belongs to: deleting that row deletes this one too. */
export const ownedBy = (name: string, owner: () => AnySQLiteColumn) => text(name).notNull().references(owner, { onDelete: "cascade" });

/** SQLite's "now in epoch ms"; db/postgres/derive.ts puts PostgreSQL's own in its place. */
export const epochMsNow = sql`(unixepoch() * 1000)`;

/** A Date column (epoch ms) that SQLite fills with the current time when a row is inserted without it. */
export const timeNow = (name: string) => integer(name, { mode: "timestamp_ms" }).notNull().default(epochMsNow);
