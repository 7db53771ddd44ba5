// The skills a session's agent sees: the session owner's layers (their personal layer included), resolved
// with the session's environment, agent and tenant and the policy in force now (a blocked skill disappears),
// then narrowed to the session's chosen subset, if any.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { users } from "../../../db/schema";
import type { DataHome } from "../../config";
import type { SkillEntry, SkillIndex } from "../../runtime/registry";
import { resolutionFor } from "../governance/context";
import { resolveCached } from "../catalog/resolution";
import type { PlaygroundSession } from "./sessions";

export async function sessionSkills(db: Db, dataHome: DataHome, s: PlaygroundSession): Promise<SkillEntry[]> {
  return (await sessionSkillSet(db, dataHome, s)).entries;
}

/** The session's skills and the registry index they come from (which the one ranking follows). */
export async function sessionSkillSet(db: Db, dataHome: DataHome, s: PlaygroundSession): Promise<{ entries: SkillEntry[]; index: SkillIndex }> {
  // The owner's role as it is now: a global admin's session sees every tenant's skills, anyone else's only theirs.
  const role = (await db.select({ role: users.role }).from(users).where(eq(users.id, s.userId)).limit(1))[0]?.role ?? "viewer";
  const { index, ctx } = await resolutionFor(db, dataHome, { id: s.userId, role }, {
    environment: s.environment ?? undefined,
    agent: s.agent ?? undefined,
    tenant: s.tenant ?? undefined,
  });
  const entries = resolveCached(index, ctx).skills.filter((e) => e.loadable);
  if (!s.skills?.length) return { entries, index };
  const wanted = new Set(s.skills);
  return { entries: entries.filter((e) => wanted.has(e.name) || (e.plugin !== undefined && wanted.has(`${e.name}@${e.plugin}`))), index };
}
