// The skills a session's agent sees: the session owner's layers (their personal layer included), resolved
// with the session's environment, agent and tenant and the policy in force now (a blocked skill disappears),
// then narrowed to the session's chosen subset, if any.
import type { Db } from "../../../db/client";
import type { DataHome } from "../../config";
import { effectiveSkills } from "../../runtime/agent";
import type { SkillEntry } from "../../runtime/registry";
import { resolutionFor } from "../governance/context";
import type { PlaygroundSession } from "./sessions";

export async function sessionSkills(db: Db, dh: DataHome, s: PlaygroundSession): Promise<SkillEntry[]> {
  const { index, ctx } = await resolutionFor(db, dh, { id: s.userId, role: "author" }, {
    environment: s.environment ?? undefined,
    agent: s.agent ?? undefined,
    tenant: s.tenant ?? undefined,
  });
  const entries = effectiveSkills({ index, context: ctx });
  if (!s.skills?.length) return entries;
  const wanted = new Set(s.skills);
  return entries.filter((e) => wanted.has(e.name) || (e.plugin !== undefined && wanted.has(`${e.name}@${e.plugin}`)));
}
