// priority only orders definitions of one name inside one layer (a higher layer always wins, whatever the
// numbers), so a priority on a skill that has no rival of its name in its own layer can never change anything.
// Whether it has one is the registry's knowledge: the caller passes the count, and without it nothing is said.
import { finding } from "./checks";
import type { SkillContext } from "./context";
import type { Finding } from "./types";

export function checkPriority(ctx: SkillContext, rivalsInLayer: number | undefined): Finding[] {
  const priority = ctx.check.properties?.priority;
  if (priority === undefined || rivalsInLayer === undefined || rivalsInLayer > 0) return [];
  const i = ctx.frontmatterLines.findIndex((l) => /^priority\s*:/.test(l));
  return [
    finding(
      "priority.no-effect",
      `priority: ${priority} can never matter: no other definition of '${ctx.name}' is in this layer, and priority only orders definitions within one layer (enterprise > personal > project > plugin decides between layers)`,
      "SKILL.md",
      i >= 0 ? i + 1 : 1,
      i >= 0 ? ctx.frontmatterLines[i] : undefined,
    ),
  ];
}
