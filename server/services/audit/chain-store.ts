// Where the writer reads the chain's head and inserts rows, one store per database kind. They differ because the
// databases lock differently. SQLite: one connection per process and the file's single write lock, taken first by
// BEGIN IMMEDIATE; better-sqlite3 is synchronous, so a batch is a synchronous transaction over prepared statements
// (the writer's throughput, issue 8, rests on that) and can still be written from the exit hook. PostgreSQL: pooled
// connections and possibly several servers, so each batch's transaction first takes the chain's advisory lock
// (db/locks.ts) and only then reads the head; one multi-row INSERT per thousand rows keeps the batching's gain.
import { desc, fillPlaceholders, is, Param, Placeholder, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { lockForTransaction } from "../../../db/locks";
import { auditArchives, auditEvents } from "../../../db/schema/audit";
import { AUDIT_CHAIN_HMAC } from "../../domain/audit-chain";
import { GENESIS_HASH, type ChainedFields } from "./hash";
import { archivedHeadQuery } from "./rows";

export interface WrittenEvent extends ChainedFields {
  prevHash: string;
  hash: string;
}

export type Head = { id: number; hash: string };

/** After retention removed every row, the chain continues from the archived head. */
function headOf(row: Head | undefined, archived: Head | undefined): Head {
  if (row && (!archived || row.id > archived.id)) return row;
  return archived ?? { id: 0, hash: GENESIS_HASH };
}

/** The stored fields an append writes; `chain` is always the keyed chain. */
const INSERT_FIELDS = ["id", "at", "type", "actorId", "actorEmail", "sessionId", "skill", "layer", "digest", "tool", "model", "mode", "outcome", "durationMs", "details", "prevHash", "hash", "sourceAgent", "sourceVersion", "sourceHost", "sourceUser"] as const satisfies readonly (keyof WrittenEvent)[];

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

const ROWS_PER_INSERT = 1_000; // 21 parameters a row: well under PostgreSQL's 65,535 a statement

export function postgresChainStore(db: Db): PostgresChainStore {
  return {
    kind: "postgres",
    locked(fn) {
      // A transaction of its own, never joined to one the caller may be in (inTransaction would join it): the
      // batch holds events queued by many requests, and a timer set inside a caller's transaction still sees it.
      const pgDb = db as unknown as { transaction<R>(cb: (tx: Db) => Promise<R>): Promise<R> };
      return pgDb.transaction(async (tx) => {
        await lockForTransaction(tx, "audit-chain");
        const [row] = await tx.select({ id: auditEvents.id, hash: auditEvents.hash }).from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
        const [archived] = await tx.select({ id: auditArchives.lastId, hash: auditArchives.headHash }).from(auditArchives).orderBy(desc(auditArchives.lastId)).limit(1);
        return fn(headOf(row, archived), async (rows) => {
          for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
            const part = rows.slice(i, i + ROWS_PER_INSERT).map((r) => {
              const v: Record<string, unknown> = { chain: AUDIT_CHAIN_HMAC };
              for (const k of INSERT_FIELDS) v[k] = r[k] ?? null;
              return v as typeof auditEvents.$inferInsert;
            });
            await tx.insert(auditEvents).values(part);
          }
        });
      });
    },
  };
}
