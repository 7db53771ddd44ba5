// The audit chain as `omniforge db copy` finds it on the PostgreSQL side: the same checker the console's verification
// uses (server/services/audit/chain-check.ts, over hash.ts's canonical form, with the data home's keys) walks the copied
// rows in id order a page at a time, from the newest archive's head; then each sound signed checkpoint of the data
// home must name a copied row with the hash it signed. Archive files stay in the data home and are not copied.
import { asc, desc, eq, gt } from "drizzle-orm";
import type { PgDb } from "../../../db/postgres/client";
import { auditArchives, auditEvents } from "../../../db/postgres/schema";
import { ChainChecker } from "../../services/audit/chain-check";
import { readCheckpointFile } from "../../services/audit/checkpoints";
import { canonical, GENESIS_HASH, type ChainedFields } from "../../services/audit/hash";
import { loadAuditKeysAt } from "../../services/audit/keys";

const PAGE = 2_000;

export type CopiedChain = { ok: true; count: number; head: string; checkpoints: number } | { ok: false; message: string };

interface PgAuditRow extends ChainedFields {
  prevHash: string;
  hash: string;
  chain: number;
}

export async function verifyCopiedChain(db: PgDb, home: string): Promise<CopiedChain> {
  const keys = loadAuditKeysAt(home);
  const [archived] = await db.select({ id: auditArchives.lastId, hash: auditArchives.headHash }).from(auditArchives).orderBy(desc(auditArchives.lastId)).limit(1);
  const start = archived ? { id: Number(archived.id), hash: String(archived.hash) } : { id: 0, hash: GENESIS_HASH };
  const checker = new ChainChecker(start, keys);
  let cursor = start.id;
  for (;;) {
    const rows = (await db.select().from(auditEvents).where(gt(auditEvents.id, cursor)).orderBy(asc(auditEvents.id)).limit(PAGE)) as PgAuditRow[];
    if (rows.length === 0) break;
    for (const r of rows) {
      const failure = checker.push({ id: r.id, prevHash: r.prevHash, hash: r.hash, chain: r.chain, canonical: canonical(r) });
      if (failure) return { ok: false, message: failure.message };
    }
    cursor = rows[rows.length - 1]!.id;
  }
  const failure = checker.end();
  if (failure) return { ok: false, message: failure.message };
  let checkpoints = 0;
  if (keys.checkpointsFile && keys.publicKey) {
    for (const c of readCheckpointFile(keys.checkpointsFile, keys.publicKey)) {
      if (c.problem) return { ok: false, message: `checkpoint ${c.seq} of the data home cannot be trusted: ${c.problem}` };
      // Rows retention archived are not in the table; the archive files that hold them stay in the data home.
      if (c.rowId <= start.id) continue;
      const [row] = await db.select({ hash: auditEvents.hash }).from(auditEvents).where(eq(auditEvents.id, c.rowId));
      if (!row || row.hash !== c.hash) return { ok: false, message: `signed checkpoint ${c.seq} names row ${c.rowId}, which the copy ${row ? "holds with another hash" : "lacks"}` };
      checkpoints += 1;
    }
  }
  return { ok: true, count: checker.count, head: checker.head, checkpoints };
}
