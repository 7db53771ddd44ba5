// "Where is this deployed": after writing, `omniforge sync` reports what each agent folder now holds (name and
// digest per skill it owns). A report replaces the rows of that place (token, host, agent, scope), so a skill
// it removed is gone here too. Each report is one catalog_synced audit event, not one per poll.
import { and, desc, eq, inArray, max, notInArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { inTransaction } from "../../../db/transaction";
import { accessTokens, skillDeployments, users } from "../../../db/schema";
import type { AuditSink } from "../../runtime/audit/events";
import { ServiceError } from "../../domain/errors";
import { SYNC_AGENTS } from "../../domain/vocabulary";
import type { Role } from "../../domain/vocabulary";
import type { TokenPrincipal } from "../tokens";

export const MAX_REPORTED_SKILLS = 5000;

export const syncReportSchema = z.object({
  host: z.string().trim().min(1).max(200),
  agent: z.enum(SYNC_AGENTS),
  scope: z.enum(["user", "project"]),
  skills: z
    .array(z.object({ name: z.string().min(1).max(128), digest: z.string().regex(/^sha256:[0-9a-f]{64}$/) }))
    .max(MAX_REPORTED_SKILLS),
});

export async function recordSync(db: Db, p: TokenPrincipal, raw: unknown, audit: AuditSink, now = new Date()): Promise<{ recorded: number; removed: number }> {
  const parsed = syncReportSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ServiceError("BAD_REQUEST", `Bad sync report: ${parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ").slice(0, 500)}`);
  }
  const r = parsed.data;
  const place = and(eq(skillDeployments.tokenId, p.tokenId), eq(skillDeployments.host, r.host), eq(skillDeployments.agent, r.agent), eq(skillDeployments.scope, r.scope));
  const names = [...new Set(r.skills.map((s) => s.name))];
  const removed = await inTransaction(db, async (tx) => {
    const gone = (
      await tx
        .delete(skillDeployments)
        .where(names.length ? and(place, notInArray(skillDeployments.name, names)) : place)
        .returning({ name: skillDeployments.name })
    ).length;
    for (const s of r.skills) {
      await tx.insert(skillDeployments)
        .values({ tokenId: p.tokenId, userId: p.userId, host: r.host, agent: r.agent, scope: r.scope, name: s.name, digest: s.digest, firstSeenAt: now, lastSeenAt: now })
        .onConflictDoUpdate({
          target: [skillDeployments.tokenId, skillDeployments.host, skillDeployments.agent, skillDeployments.scope, skillDeployments.name],
          // A new digest is a new deployment of that skill: its first-seen time restarts.
          set: { digest: s.digest, lastSeenAt: now, firstSeenAt: sql`CASE WHEN ${skillDeployments.digest} = ${s.digest} THEN ${skillDeployments.firstSeenAt} ELSE ${now.getTime()} END` },
        });
    }
    return gone;
  });
  audit.record({
    type: "catalog_synced",
    actor: p.userId ? { id: p.userId, email: p.email ?? undefined } : { id: `token:${p.tokenId}` },
    outcome: "ok",
    // A token of one tenant syncs for that tenant: its admin reads this row.
    ...(p.tenants?.length === 1 ? { tenant: p.tenants[0] } : {}),
    details: { tokenId: p.tokenId, tokenName: p.tokenName, host: r.host, agent: r.agent, scope: r.scope, skills: r.skills.length, removed },
  });
  return { recorded: r.skills.length, removed };
}

export interface DeploymentRow {
  name: string;
  digest: string;
  host: string;
  agent: string;
  scope: string;
  user: string | null;
  tokenName: string;
  /** The reporting token, so an admin's view can keep to the tokens they manage (a tenant admin's, issue #40). */
  tokenId: string;
  firstSeenAt: Date;
  lastSeenAt: Date;
}

/** Where a skill is deployed. Administrators see every machine; anyone else only their own tokens' places. */
export async function deploymentsOf(db: Db, viewer: { id: string; role: Role }, name: string): Promise<DeploymentRow[]> {
  return await db
    .select({
      name: skillDeployments.name,
      digest: skillDeployments.digest,
      host: skillDeployments.host,
      agent: skillDeployments.agent,
      scope: skillDeployments.scope,
      user: users.email,
      tokenName: accessTokens.name,
      tokenId: skillDeployments.tokenId,
      firstSeenAt: skillDeployments.firstSeenAt,
      lastSeenAt: skillDeployments.lastSeenAt,
    })
    .from(skillDeployments)
    .innerJoin(accessTokens, eq(accessTokens.id, skillDeployments.tokenId))
    .leftJoin(users, eq(users.id, skillDeployments.userId))
    .where(viewer.role === "admin" ? eq(skillDeployments.name, name) : and(eq(skillDeployments.name, name), eq(skillDeployments.userId, viewer.id)))
    .orderBy(desc(skillDeployments.lastSeenAt));
}

/** Each token's last reported sync (token id -> time), for the tokens page. */
export async function lastSyncByToken(db: Db, tokenIds: string[]): Promise<Map<string, Date>> {
  if (tokenIds.length === 0) return new Map();
  const rows = await db
    .select({ tokenId: skillDeployments.tokenId, at: max(skillDeployments.lastSeenAt) })
    .from(skillDeployments)
    .where(inArray(skillDeployments.tokenId, tokenIds))
    .groupBy(skillDeployments.tokenId);
  return new Map(rows.filter((r) => r.at).map((r) => [r.tokenId, new Date(r.at as unknown as number)]));
}
