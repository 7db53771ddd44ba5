// Reviewed updates of git sources (policy requireApprovalForSources): an update from the console pins nothing; it
// lays out the proposed commit and makes one pending approval per skill it changes (approvals rows with the source
// and both commits). The pin moves when the last of them is approved, as the same update with `to` that commit.
import { and, eq, isNotNull, ne } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { inTransaction } from "../../../db/transaction";
import { approvals, type Approval } from "../../../db/schema";
import type { DataHome } from "../../config";
import type { Audited } from "../../runtime/audit/events";
import { proposeUpdate, skillDiff, type Proposal } from "../../runtime/sources/review";
import { readSources } from "../../runtime/sources/state";
import { updateSource } from "../../runtime/sources/sources";

export interface SourceReview {
  id: number;
  source: string;
  skill: string;
  plugin: string | null;
  layer: string;
  from: string;
  to: string;
  requestedBy: string | null;
  requestedAt: number;
  /** The source was moved since (by an update, rollback or the CLI): approving this would not apply it. */
  stale: boolean;
  diff: string;
}

/**
 * Records the proposal's changes as pending approvals (a change decided before keeps its decision); older undecided
 * proposals of the source are dropped. Returns how many changes of the proposal wait for a decision.
 */
export async function recordProposal(db: Db, p: Proposal, by: Audited): Promise<number> {
  const layerOf = (plugin: string | null) => (plugin || p.record.layer === "plugin" ? "plugin" : "enterprise");
  await inTransaction(db, async (tx) => {
    await tx.delete(approvals).where(and(eq(approvals.source, p.record.name), eq(approvals.status, "pending"), ne(approvals.toCommit, p.to)));
    const have = new Set(
      (await tx.select().from(approvals).where(and(eq(approvals.source, p.record.name), eq(approvals.toCommit, p.to)))).map((a) => `${a.plugin ?? ""}\u0000${a.skill}`),
    );
    for (const c of p.changes) {
      if (have.has(`${c.plugin ?? ""}\u0000${c.skill}`)) continue;
      await tx.insert(approvals)
        .values({ layer: layerOf(c.plugin), plugin: c.plugin, skill: c.skill, digest: p.to, status: "pending", requestedBy: by.actor.email ?? by.actor.id, requestedAt: Date.now(), source: p.record.name, fromCommit: p.from, toCommit: p.to });
    }
  });
  return (await db.select().from(approvals).where(and(eq(approvals.source, p.record.name), eq(approvals.toCommit, p.to), eq(approvals.status, "pending")))).length;
}

export { proposeUpdate };
/** Every source update change waiting for a decision, with its diff between the pinned and the proposed commit. */
export async function pendingSourceReviews(db: Db, dataHome: DataHome): Promise<SourceReview[]> {
  const records = new Map(readSources(dataHome.home).map((r) => [r.name, r]));
  const rows = await db.select().from(approvals).where(and(isNotNull(approvals.source), eq(approvals.status, "pending"))).orderBy(approvals.id);
  return rows.map((a) => {
    const rec = records.get(a.source!);
    const change = { skill: a.skill, plugin: a.plugin };
    return {
      id: a.id,
      source: a.source!,
      skill: a.skill,
      plugin: a.plugin,
      layer: a.layer,
      from: a.fromCommit!,
      to: a.toCommit!,
      requestedBy: a.requestedBy,
      requestedAt: a.requestedAt,
      stale: !rec || rec.commit !== a.fromCommit,
      diff: rec ? skillDiff(dataHome.home, rec, a.fromCommit!, a.toCommit!, change) : "",
    };
  });
}

/**
 * After a decision on a source update's change: when every change of that proposal is approved and the source is
 * still pinned where the proposal started, the pin moves to the proposed commit (audited as source_updated).
 * Returns the commit pinned, or null when nothing moved.
 */
export async function applyIfApproved(db: Db, dataHome: DataHome, decided: Pick<Approval, "source" | "status" | "fromCommit" | "toCommit">, by: Audited & { env?: Record<string, string | undefined> }): Promise<string | null> {
  if (!decided.source || decided.status !== "approved") return null;
  const rows = await db.select().from(approvals).where(and(eq(approvals.source, decided.source), eq(approvals.toCommit, decided.toCommit!)));
  if (rows.some((r) => r.status !== "approved")) return null;
  const rec = readSources(dataHome.home).find((r) => r.name === decided.source);
  if (!rec || rec.commit !== decided.fromCommit) return null;
  const out = await updateSource({ home: dataHome.home, audit: by.audit, actor: by.actor, env: by.env }, rec.name, { to: decided.toCommit!, force: true });
  return out.to;
}
