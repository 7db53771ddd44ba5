// A session's `active_skills` (spec 004) coming back at the start of a run: each still effective skill goes on the
// stack again, owned by the session, without a new activation (it never went); the others are reported gone.
import type { SkillEntry } from "../registry/types";
import type { SkillStack } from "../tools/stack";
import { SESSION_OWNER } from "./mode-tools";
import { loadSkill, type LoadedSkill } from "./skill-source";

export function restoreSessionSkills(
  names: string[],
  byName: Map<string, SkillEntry>,
  loaded: Map<string, LoadedSkill>,
  stack: SkillStack,
): { restored: string[]; unavailable: string[] } {
  const restored: string[] = [];
  const unavailable: string[] = [];
  for (const name of names) {
    const entry = byName.get(name);
    let l: LoadedSkill | undefined;
    try {
      l = entry ? loadSkill(entry) : undefined;
    } catch {
      l = undefined;
    }
    // A fork skill never stays loaded: it runs as a sub-agent.
    if (!l || l.context === "fork") {
      unavailable.push(name);
      continue;
    }
    loaded.set(l.name, l);
    stack.push({ name: l.name, layer: l.layer, digest: l.digest, baseDir: l.baseDir, ...(l.allowedTools ? { allowedTools: l.allowedTools } : {}), activatedBy: SESSION_OWNER });
    restored.push(l.name);
  }
  return { restored, unavailable };
}
