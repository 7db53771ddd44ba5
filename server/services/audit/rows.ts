// The audit tables as the service reads them, through db/schema/audit.ts's drizzle columns: the stored row's
// fields and where retention last cut the chain. Writer, verification, queries and retention share these.
import { desc } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { auditArchives, auditEvents } from "../../../db/schema/audit";

/**
 * A stored row: the chained fields first, in canonical() order (hash.ts), then prev_hash, hash and chain, then
 * the source fields.
 * The chained fields come in the order canonical() hashes them, so a row reads as it is chained.
 */
export const ROW_FIELDS = {
  id: auditEvents.id,
  at: auditEvents.at,
  type: auditEvents.type,
  actorId: auditEvents.actorId,
  actorEmail: auditEvents.actorEmail,
  sessionId: auditEvents.sessionId,
  skill: auditEvents.skill,
  layer: auditEvents.layer,
  digest: auditEvents.digest,
  tool: auditEvents.tool,
  model: auditEvents.model,
  mode: auditEvents.mode,
  outcome: auditEvents.outcome,
  durationMs: auditEvents.durationMs,
  details: auditEvents.details,
  prevHash: auditEvents.prevHash,
  hash: auditEvents.hash,
  chain: auditEvents.chain,
  // Agents' telemetry only (null for the console's own rows); canonical() appends them when one is set.
  sourceAgent: auditEvents.sourceAgent,
  sourceVersion: auditEvents.sourceVersion,
  sourceHost: auditEvents.sourceHost,
  sourceUser: auditEvents.sourceUser,
  // The request's tenant (issue #40); canonical() appends it after the source places when set.
  tenant: auditEvents.tenant,
};

/** The newest archive's head query (the chain continues from it after retention), prepared once per caller. */
export function archivedHeadQuery(db: Db) {
  return db
    .select({ id: auditArchives.lastId, hash: auditArchives.headHash })
    .from(auditArchives)
    .orderBy(desc(auditArchives.lastId))
    .limit(1)
    .prepare();
}
