// A skill's name becomes a folder name on every machine that syncs the catalog (issue #35 item 8): a SKILL.md whose
// name breaks the spec's naming rule ("../../etc/x", "Code Review") is refused when it is saved or imported, with
// the rule's own messages. A SKILL.md that does not parse yet (mid-edit) is judged when it does.
import path from "node:path";
import { checkSkillSource } from "../../runtime/skill/check";
import { nameProblems } from "../../runtime/skill/name-rule";
import { badRequest } from "./errors";

/** Refuses `name` (a frontmatter value) when it is a string the naming rule calls an error. */
export function assertValidName(name: unknown, what: "saved" | "imported" = "saved"): void {
  if (typeof name !== "string") return;
  const errors = nameProblems(name, { ascii: true }).filter((p) => p.severity === "error");
  if (!errors.length) return;
  throw badRequest(`Not ${what}: the skill's name becomes its folder name wherever it is synced, so it must follow the naming rule. ${errors.map((e) => e.message).join(" ")}`, {
    code: "skill.name-invalid",
  });
}

/** assertValidName for the text of a SKILL.md about to be written (`rel`: its path in the skill). */
export function assertValidNameIn(rel: string, text: string): void {
  if (rel.toLowerCase() !== "skill.md") return;
  assertValidName(checkSkillSource(text, { dir: path.join("/", "skill"), rules: "omniforge" }).raw?.name);
}
