// Whether a data home's audit key is the one a database's chain is keyed with. The console's PostgreSQL is reachable
// from anywhere DATABASE_URL is set, but its chain's key lives in the console's data home: a command run with the
// URL and another home (the command line's default ~/.omniforge) made a key pair of its own there, appended rows the
// console's verification then called edited, and signed a checkpoint no one else can read; a console server started
// with another OMNIFORGE_HOME than the others did the same. So a program that is about to append checks the newest
// keyed row with its key first, and creates nothing.
import { desc, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { auditEvents } from "../../../db/schema/audit";
import { AUDIT_CHAIN_HMAC } from "../../domain/audit-chain";
import { canonical, macCanonical } from "./hash";
import { loadAuditKeys } from "./keys";
import { ROW_FIELDS } from "./rows";

/**
 * Null when rows appended with this data home's key continue the chain; else the line saying so, ending with `fix`
 * (what the command line or a console server should be given instead).
 */
export async function chainKeyProblem(db: Db, fix: string): Promise<string | null> {
  const head = (await db.select(ROW_FIELDS).from(auditEvents).where(eq(auditEvents.chain, AUDIT_CHAIN_HMAC)).orderBy(desc(auditEvents.id)).limit(1))[0];
  if (!head) return null; // no keyed row yet: the first writer's key starts the chain
  const keys = loadAuditKeys(db);
  if (!keys.hmacKey) return `its audit chain is keyed with the console's data home's key, and ${keys.home} holds none: ${fix}`;
  if (macCanonical(keys.hmacKey, head.prevHash, canonical(head)) === head.hash) return null;
  return (
    `its audit chain is keyed with another key than the one in ${keys.home} (its newest keyed row, ${head.id}, does not verify with it): ${fix}; ` +
    "if this is that folder, the row was changed since it was written: the audit page's chain check says how"
  );
}
