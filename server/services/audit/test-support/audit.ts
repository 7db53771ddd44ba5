// Test helpers of the audit tests: the shared temp database, and a stored row read back as the table holds it.
import { eq } from "drizzle-orm";
import type { Db } from "../../../../db/client";
import { dbKind } from "../../../../db/dialect";
import type { PgDb } from "../../../../db/postgres/client";
import { verifyCopiedChain } from "../../../cli/commands/db-copy-chain";
import type { TempDb } from "../../../test-support/temp-db";
import { auditEvents } from "../../../../db/schema/audit";
import { ROW_FIELDS } from "../rows";
import { verifyChainAsync, type StoredRow } from "../verify";

export { tempDb, type TempDb } from "../../../test-support/temp-db";

/** One stored row exactly as the table holds it (tests read rows to tamper with them). */
export async function storedRow(db: Db, id: number): Promise<StoredRow> {
  return (await db.select(ROW_FIELDS).from(auditEvents).where(eq(auditEvents.id, id)).limit(1))[0]!;
}

/**
 * Whether the test database's chain verifies: { ok, count }. On PostgreSQL through the walker `omniforge db copy`
 * checks a copy with (the same ChainChecker and checkpoints), until verify.ts awaits its queries (the services'
 * conversion); then verifyChainAsync serves both.
 */
export async function chainVerifies(t: Pick<TempDb, "db" | "dir">): Promise<{ ok: boolean; count?: number; message?: string }> {
  if (dbKind(t.db) === "sqlite") return verifyChainAsync(t.db);
  return verifyCopiedChain(t.db as unknown as PgDb, t.dir);
}
