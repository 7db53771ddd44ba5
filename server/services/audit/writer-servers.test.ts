// Two servers on one database append to one audit chain at the same time (issue #38): each has its own connection
// (a pool on PostgreSQL, a connection to the file on SQLite) and its own writer. Their batches interleave and the
// chain must still be one valid chain, with the signed checkpoints of both matching the rows they name.
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { describe, expect, it } from "vitest";
import { postgresDb, type Db } from "../../../db/client";
import { dbKind, postgresPool } from "../../../db/dialect";
import * as schema from "../../../db/schema";
import { auditEvents } from "../../../db/schema/audit";
import { useTestHome } from "../../test-support/test-home";
import { chainVerifies, tempDb } from "./test-support/audit";
import { AuditWriter } from "./writer";

/** A second connection to the test's database, as a second console server would open. */
function secondServer(t: { db: Db; file: string; url: string | null; dir: string }): { db: Db; close(): Promise<void> } {
  if (dbKind(t.db) === "postgres") {
    const db = postgresDb(t.url!, t.dir);
    return { db, close: () => postgresPool(db)!.end() };
  }
  const sqlite = new Database(t.file);
  sqlite.pragma("busy_timeout = 5000");
  return { db: drizzle(sqlite, { schema }) as unknown as Db, close: async () => void sqlite.close() };
}

describe("two servers appending to one audit chain at once", () => {
  const t = useTestHome(tempDb);

  it("keep one chain: every row links to the one before, ids have no gap, every checkpoint matches", async () => {
    const other = secondServer(t);
    const opts = { stdout: false, flushMs: 1, checkpointEveryRows: 25 };
    const writers = [new AuditWriter(t.db, opts), new AuditWriter(other.db, opts)];
    const ROUNDS = 40;
    // Each server records a few events per round and writes them, both at once; on PostgreSQL each flush is a
    // transaction on its own connection, so without the chain's lock both would read the same head.
    await Promise.all(
      writers.map(async (w, server) => {
        for (let round = 0; round < ROUNDS; round++) {
          for (let i = 0; i <= round % 5; i++) w.record({ type: "tool_call", actor: { id: `user-${server}` }, details: { server, round, i } });
          await w.flush();
        }
      }),
    );
    await Promise.all(writers.map((w) => w.close()));
    await other.close();
    const expected = 2 * Array.from({ length: ROUNDS }, (_, r) => (r % 5) + 1).reduce((a, b) => a + b, 0);
    const ids = (await t.db.select({ id: auditEvents.id }).from(auditEvents)).map((r) => r.id).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: expected }, (_, i) => i + 1));
    expect(await chainVerifies(t)).toMatchObject({ ok: true, count: expected });
  });
});
