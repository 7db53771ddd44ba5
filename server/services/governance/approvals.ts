// Approvals: which definitions wait for an admin, and the admin's decision. Pending items are discovered from
// the index and the policy (the registry's approvalReason says who needs one); rows are created lazily, one
// per definition and approval digest (SKILL.md, plus scripts/ where the registry binds them), so an edit after approval shows up as a new pending item.
import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { inTransaction } from "../../../db/transaction";
import { approvals, skillVersions, type Approval } from "../../../db/schema";
import type { DataHome } from "../../config";
import type { Audited } from "../../runtime/audit/events";
import { approvalKey, approvalReason, blockReason, disabledReason, resolve, type LayerName, type ResolveContext, type SkillEntry } from "../../runtime/registry";
import { effectivePolicy } from "../policy/store";
import { configContextFor } from "../skills-config";
import { displayPath, ownerOf } from "./context";
import { GovernanceError } from "./errors";

export interface ApprovalItem {
  id: number;
  skill: string;
  layer: LayerName;
  ownerId: string | null;
  plugin: string | null;
  digest: string;
  status: Approval["status"];
  reason: string;
  where: string;
  hasScripts: boolean;
  /**
   * Another definition wins this name in the default context even once this version is approved (say which), so
   * approving it changes nothing until that one goes. Null when approving it would make it active.
   */
  shadowedBy: string | null;
  requestedBy: string | null;
  requestedAt: number;
  decidedBy: string | null;
  decidedAt: number | null;
  comment: string;
}

/**
 * What an approval binds to: the registry's approvalDigest (SKILL.md plus scripts/) when the index provides it,
 * else the SKILL.md digest. Always the same value the registry's approvalReason compares with.
 */
export function approvalDigestOf(e: SkillEntry): string {
  const withScripts = e as SkillEntry & { approvalDigest?: string };
  return withScripts.approvalDigest || e.digest;
}

const sameDefinition = (layer: string, ownerId: string | null, plugin: string | null, skill: string, digest: string) =>
  and(
    eq(approvals.layer, layer),
    ownerId === null ? isNull(approvals.ownerId) : eq(approvals.ownerId, ownerId),
    plugin === null ? isNull(approvals.plugin) : eq(approvals.plugin, plugin),
    eq(approvals.skill, skill),
    eq(approvals.digest, digest),
  );

/** Who last saved exactly this SKILL.md through the console, if anyone did. */
async function authorOf(db: Db, e: SkillEntry, ownerId: string | null): Promise<string | null> {
  const row = (await db
    .select({ email: skillVersions.authorEmail })
    .from(skillVersions)
    .where(
      and(
        eq(skillVersions.layer, e.layer),
        ownerId === null ? isNull(skillVersions.ownerId) : eq(skillVersions.ownerId, ownerId),
        eq(skillVersions.digest, e.digest),
      ),
    )
    .orderBy(desc(skillVersions.createdAt)).limit(1))[0];
  return row?.email ?? null;
}

/**
 * Every definition that needs an approval for its current digest, with its approval row (created as pending
 * when missing). Blocked, disabled and broken definitions are left out: they could not be active anyway.
 */
export async function syncApprovals(db: Db, dataHome: DataHome, definitions: Iterable<SkillEntry>): Promise<ApprovalItem[]> {
  const policies = new Map<string | null, Awaited<ReturnType<typeof effectivePolicy>>>();
  const policyFor = async (owner: string | null) => {
    if (!policies.has(owner)) policies.set(owner, await effectivePolicy(db, { userId: owner }));
    return policies.get(owner)!;
  };
  const out: ApprovalItem[] = [];
  const seen = new Set<string>();
  const all = [...definitions];
  const byName = new Map<string, SkillEntry[]>();
  for (const e of all) {
    const same = byName.get(e.name);
    if (same) same.push(e);
    else byName.set(e.name, [e]);
  }
  const config = configOrDefault(dataHome);
  // Every approval row once, keyed by definition and version (the latest row wins), instead of a query per skill.
  const keyOf = (layer: string, owner: string | null, plugin: string | null, skill: string, digest: string) =>
    [layer, owner ?? "", plugin ?? "", skill, digest].join("\u0000");
  const existing = new Map<string, Approval>();
  // One transaction: the first listing after "require approval" is switched on may create a row per skill. The rows
  // are read inside it, so two listings at once do not both create the same pending row.
  await inTransaction(db, async (tx) => {
    for (const a of await tx.select().from(approvals).orderBy(approvals.id)) existing.set(keyOf(a.layer, a.ownerId, a.plugin, a.skill, a.digest), a);
    for (const e of all) {
      if (!e.loadable || seen.has(e.id)) continue;
      seen.add(e.id);
      const owner = ownerOf(e, dataHome);
      const policy = await policyFor(owner);
      if (blockReason(e.name, policy) || disabledReason(e, policy)) continue;
      const reason = approvalReason(e, policy);
      if (!reason) continue;
      const plugin = e.plugin ?? null;
      const digest = approvalDigestOf(e);
      let row = existing.get(keyOf(e.layer, owner, plugin, e.name, digest));
      if (!row) {
        row = (await tx
          .insert(approvals)
          .values({
            layer: e.layer,
            ownerId: owner,
            plugin,
            skill: e.name,
            digest,
            status: "pending",
            requestedBy: await authorOf(tx, e, owner),
            requestedAt: Date.now(),
          })
          .returning())[0]!;
      }
      out.push({
        id: row.id,
        skill: e.name,
        layer: e.layer,
        ownerId: owner,
        plugin,
        digest,
        status: row.status,
        reason,
        where: displayPath(e.dir, dataHome),
        hasScripts: e.hasScripts,
        shadowedBy: winnerOver(e, owner, byName.get(e.name) ?? [], { ...config, policy }, dataHome),
        requestedBy: row.requestedBy,
        requestedAt: row.requestedAt,
        decidedBy: row.decidedBy,
        decidedAt: row.decidedAt,
        comment: row.comment,
      });
    }
  });
  return out.sort((a, b) => (a.status === b.status ? a.skill.localeCompare(b.skill) : a.status === "pending" ? -1 : 1));
}

/** config.yaml's precedence and disabled names; a broken config.yaml is reported by the views that need it, not here. */
export function configOrDefault(dataHome: DataHome): ResolveContext {
  try {
    return configContextFor(dataHome.home, dataHome.projectRoot);
  } catch {
    return {};
  }
}

/**
 * The definition that would still win over `e` once `e` is approved: resolved as the registry does, among the shared
 * layers and only its owner's personal layer (a personal skill shadows a shared one for that person alone), with
 * `e` counted as approved. Where it is, for the admin to read, or null.
 */
function winnerOver(e: SkillEntry, owner: string | null, sameName: SkillEntry[], ctx: ResolveContext, dataHome: DataHome): string | null {
  const defs = sameName.filter((d) => d.layer !== "personal" || ownerOf(d, dataHome) === owner);
  if (defs.length < 2) return null;
  const approved = ctx.policy && { ...ctx.policy, approvedDigests: { ...ctx.policy.approvedDigests, [approvalKey(e)]: approvalDigestOf(e) } };
  const r = resolve({ definitions: () => defs, names: () => [e.name] }, e.plugin ? `${e.name}@${e.plugin}` : e.name, { ...ctx, policy: approved });
  if (!r.active || r.active.id === e.id) return null;
  return `${r.active.plugin ? `the plugin "${r.active.plugin}"` : `the ${r.active.layer}`} definition (${displayPath(r.active.dir, dataHome)})`;
}

export interface ApprovalNote {
  status: Approval["status"];
  comment: string;
  decidedBy: string | null;
  /** When this version first waited (said above the editor, #41 item 8). */
  requestedAt: number;
}

/**
 * The latest decision on exactly this version of each definition (rejected with a comment, or still pending),
 * so the person who wrote a waiting skill can read why it is not active. Read-only: creates no rows.
 */
export async function approvalNotes(db: Db, dataHome: DataHome, entries: SkillEntry[]): Promise<Record<string, ApprovalNote>> {
  const out: Record<string, ApprovalNote> = {};
  for (const e of entries) {
    const row = (await db
      .select()
      .from(approvals)
      .where(sameDefinition(e.layer, ownerOf(e, dataHome), e.plugin ?? null, e.name, approvalDigestOf(e)))
      .orderBy(desc(approvals.id)).limit(1))[0];
    if (row) out[e.id] = { status: row.status, comment: row.comment, decidedBy: row.decidedBy, requestedAt: row.requestedAt };
  }
  return out;
}

/** Recent decisions, newest first (for the admin's history). */
export async function recentDecisions(db: Db, limit = 50): Promise<Approval[]> {
  return await db
    .select()
    .from(approvals)
    .where(inArray(approvals.status, ["approved", "rejected"]))
    .orderBy(desc(approvals.decidedAt), desc(approvals.id))
    .limit(limit);
}

export async function decideApproval(
  db: Db,
  input: { id: number; decision: "approved" | "rejected"; comment: string },
  by: Audited,
): Promise<Approval> {
  const comment = input.comment.trim();
  if (input.decision === "rejected" && !comment) {
    throw new GovernanceError("BAD_REQUEST", "say why the skill is rejected, so its author knows what to change");
  }
  const row = (await db.select().from(approvals).where(eq(approvals.id, input.id)).limit(1))[0];
  if (!row) throw new GovernanceError("NOT_FOUND", `approval #${input.id} does not exist`);
  const decided = (await db
    .update(approvals)
    .set({ status: input.decision, decidedBy: by.actor.email ?? by.actor.id, decidedAt: Date.now(), comment })
    .where(eq(approvals.id, row.id))
    .returning())[0]!;
  by.audit.record({
    type: "approval_decided",
    actor: by.actor,
    outcome: "ok",
    skill: row.skill,
    layer: row.layer,
    digest: row.digest,
    details: {
      approvalId: row.id,
      decision: input.decision,
      comment,
      previousStatus: row.status,
      ownerId: row.ownerId,
      plugin: row.plugin,
      requestedBy: row.requestedBy,
    },
  });
  return decided;
}
