// Test helpers of the audit tests: the shared temp database, and a stored row read back as the table holds it.
import { eq } from "drizzle-orm";
import type { Db } from "../../../../db/client";
import { auditEvents } from "../../../../db/schema/audit";
import { ROW_FIELDS } from "../rows";
import type { StoredRow } from "../verify";

export { tempDb, type TempDb } from "../../../test-support/temp-db";

/** One stored row exactly as the table holds it (tests read rows to tamper with them). */
export function storedRow(db: Db, id: number): StoredRow {
  return db.select(ROW_FIELDS).from(auditEvents).where(eq(auditEvents.id, id)).get()!;
}
