// Two servers on one database append to one audit chain at the same time (issue #38): each has its own connection
// (a pool on PostgreSQL, a connection to the file on SQLite) and its own writer. Their batches interleave and the
// chain must still be one valid chain, with the signed checkpoints of both matching the rows they name.
import { describe, expect, it } from "vitest";
import { auditEvents } from "../../../db/schema/audit";
import { secondConnection } from "../../test-support/temp-db";
import { useTestHome } from "../../test-support/test-home";
import { chainVerifies, tempDb } from "./test-support/audit";
import { AuditWriter } from "./writer";

describe("two servers appending to one audit chain at once", () => {
  const t = useTestHome(tempDb);

  it("keep one chain: every row links to the one before, ids have no gap, every checkpoint matches", async () => {
    const other = secondConnection(t);
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
