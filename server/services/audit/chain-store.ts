// Where the writer reads the chain's head and inserts rows, one store per database kind. They differ because the
// databases lock differently. SQLite: one connection per process and the file's single write lock, taken first by
// BEGIN IMMEDIATE; better-sqlite3 is synchronous, so a batch is a synchronous transaction over prepared statements
// (the writer's throughput, issue 8, rests on that) and can still be written from the exit hook. PostgreSQL: pooled
// connections and possibly several servers, so each batch's transaction first takes the chain's advisory lock
// (db/locks.ts) and only then reads the head; the whole batch is one INSERT of column arrays.
import { desc, fillPlaceholders, getTableName, is, Param, Placeholder, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { postgresPool } from "../../../db/dialect";
import { lockOnConnection } from "../../../db/locks";
import { auditArchives, auditEvents } from "../../../db/schema/audit";
import { AUDIT_CHAIN_HMAC } from "../../domain/audit-chain";
import { GENESIS_HASH, type ChainedFields } from "./hash";
import { archivedHeadQuery } from "./rows";

export interface WrittenEvent extends ChainedFields {
  prevHash: string;
  hash: string;
  /** Derived from the hashed fields when written (exit-status.ts), outside the hash. */
  exitStatus: string | null;
}

export type Head = { id: number; hash: string };

/** After retention removed every row, the chain continues from the archived head. */
function headOf(row: Head | undefined, archived: Head | undefined): Head {
  if (row && (!archived || row.id > archived.id)) return row;
  return archived ?? { id: 0, hash: GENESIS_HASH };
}

/** The stored fields an append writes; `chain` is always the keyed chain. */
const INSERT_FIELDS = ["id", "at", "type", "actorId", "actorEmail", "sessionId", "skill", "layer", "digest", "tool", "model", "mode", "outcome", "durationMs", "details", "prevHash", "hash", "sourceAgent", "sourceVersion", "sourceHost", "sourceUser", "tenant", "exitStatus"] as const satisfies readonly (keyof WrittenEvent)[];

/**
 * The INSERT as drizzle writes it from db/schema/audit.ts, prepared on the connection and bound by position in
 * the order drizzle placed its placeholders. Drizzle's own prepared run() fills placeholders on every call:
 * measured 9.1 against 6.4 microseconds a row, which the writer's throughput (issue 8) cannot spare.
 */
function prepareInsert(db: Db): (row: WrittenEvent) => void {
  const values = Object.fromEntries(INSERT_FIELDS.map((k) => [k, sql.placeholder(k)]));
  const q = db
    .insert(auditEvents)
    .values({ ...(values as unknown as typeof auditEvents.$inferInsert), chain: AUDIT_CHAIN_HMAC })
    .toSQL();
  // Each parameter is a Param (value + column) around a placeholder, or around a fixed value such as `chain`.
  // The audit columns are plain integers and text, whose driver value is the value itself.
  // drizzle's is(), not instanceof: a server bundle may hold two copies of drizzle's classes.
  const inner = (p: unknown) => (is(p, Param) ? p.value : p);
  const order = q.params.map((p) => {
    const v = inner(p);
    return is(v, Placeholder) ? (v.name as keyof WrittenEvent) : null;
  });
  const fixed = fillPlaceholders(q.params.map((p, i) => (order[i] ? null : p)), {});
  const stmt = db.$client.prepare(q.sql);
  const args: unknown[] = new Array(order.length);
  return (row) => {
    for (let i = 0; i < order.length; i++) {
      const k = order[i];
      args[i] = k ? (row[k] ?? null) : fixed[i];
    }
    stmt.run(args);
  };
}

export interface SqliteChainStore {
  kind: "sqlite";
  /** Runs `fn` in one BEGIN IMMEDIATE transaction with the head read under the write lock. */
  locked<T>(fn: (head: Head, insert: (row: WrittenEvent) => void) => T): T;
}

export interface PostgresChainStore {
  kind: "postgres";
  /** Runs `fn` in one transaction holding the chain's advisory lock, with the head read under it. */
  locked<T>(fn: (head: Head, insert: (rows: WrittenEvent[]) => Promise<void>) => Promise<T>): Promise<T>;
}

export type ChainStore = SqliteChainStore | PostgresChainStore;

export function sqliteChainStore(db: Db): SqliteChainStore {
  const insert = prepareInsert(db);
  const head = db.select({ id: auditEvents.id, hash: auditEvents.hash }).from(auditEvents).orderBy(desc(auditEvents.id)).limit(1).prepare();
  const archivedHead = archivedHeadQuery(db);
  return {
    kind: "sqlite",
    locked(fn) {
      return db.$client.transaction(() => fn(headOf(head.get(), archivedHead.get()), insert)).immediate();
    },
  };
}

// The columns an append fills, by their names in db/schema/audit.ts, and PostgreSQL's array type for each: a batch is
// one INSERT ... SELECT FROM unnest(one array per column), 23 parameters whatever its size. A multi-row VALUES list
// built by drizzle measured 2,800 rows/s here (its SQL and 22 parameters a row rebuilt for every thousand rows).
const NUMERIC_FIELDS = new Set<string>(["id", "at", "durationMs"]);
const COLUMN_TYPES = INSERT_FIELDS.map((k) => (NUMERIC_FIELDS.has(k) ? "bigint[]" : "text[]"));
const quoted = (name: string) => `"${name}"`;

export function postgresChainStore(db: Db): PostgresChainStore {
  const pool = postgresPool(db)!;
  const e = auditEvents;
  const a = auditArchives;
  const insertSql =
    `INSERT INTO ${quoted(getTableName(e))} (${INSERT_FIELDS.map((k) => quoted(e[k].name)).join(", ")}, ${quoted(e.chain.name)}) ` +
    `SELECT *, ${AUDIT_CHAIN_HMAC} FROM unnest(${COLUMN_TYPES.map((t, i) => `$${i + 1}::${t}`).join(", ")})`;
  // Both heads in one statement: the chain's last row and the newest archive's (each batch paid a round trip for each,
  // and a playground turn's events come in four or five batches: issue #38's turn cost).
  const headsSql =
    `(SELECT ${quoted(e.id.name)} AS id, ${quoted(e.hash.name)} AS hash, false AS archived FROM ${quoted(getTableName(e))} ORDER BY ${quoted(e.id.name)} DESC LIMIT 1) UNION ALL ` +
    `(SELECT ${quoted(a.lastId.name)}, ${quoted(a.headHash.name)}, true FROM ${quoted(getTableName(a))} ORDER BY ${quoted(a.lastId.name)} DESC LIMIT 1)`;
  return {
    kind: "postgres",
    async locked(fn) {
      // A connection and a transaction of its own, never joined to one the caller may be in: the batch holds events
      // queued by many requests, and a timer set inside a caller's transaction would still see that transaction.
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        await lockOnConnection(client, "audit-chain");
        const heads = (await client.query<Head & { archived: boolean }>(headsSql)).rows.map(({ id, hash, archived }) => ({ head: { id, hash }, archived }));
        const row = heads.find((h) => !h.archived)?.head;
        const archived = heads.find((h) => h.archived)?.head;
        const result = await fn(headOf(row, archived), async (rows) => {
          const columns = INSERT_FIELDS.map((k) => rows.map((r) => r[k] ?? null));
          await client.query(insertSql, columns);
        });
        await client.query("COMMIT");
        return result;
      } catch (err) {
        await client.query("ROLLBACK").catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
  };
}
