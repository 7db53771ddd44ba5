// What a name rule reaches today (issue 41 item 7): blocking, disabling or allowlisting a name no definition has is
// accepted (a rule may wait for a skill to come), but never silently. The answer says the rule matches nothing
// now and, when a known name is close, which one was probably meant.
import type { SkillEntry } from "../../runtime/registry";
import { count, plural } from "../../domain/plural";
import { nearest } from "../../domain/suggest";
import type { PolicyChange } from "./policy-rules";

/** Names of the rule that adds something (block, disable, allowlist); removing a rule reaches nothing new. */
function namesOf(change: PolicyChange): { name: string; layer?: SkillEntry["layer"]; plugin?: string }[] {
  if (change.op === "block") return [{ name: change.name }];
  if (change.op === "disable") return [{ name: change.name, layer: change.layer, plugin: change.plugin }];
  if (change.op === "setAllowlist") return (change.names ?? []).map((name) => ({ name }));
  return [];
}

/** Lines said at most: an allowlist may hold 10,000 names, and each suggestion compares one with every name. */
const MAX_LINES = 10;

/** One line per name the change names that matches no definition today, with the close name when there is one. */
export function unmatchedRules(change: PolicyChange, definitions: readonly SkillEntry[]): string[] {
  const known = new Set(definitions.map((d) => d.name));
  const out: string[] = [];
  const unmatched = namesOf(change).filter((r) => !known.has(r.name) || r.layer);
  let more = 0;
  for (const r of unmatched) {
    const where = r.layer ? definitions.filter((d) => d.layer === r.layer && (r.plugin === undefined || d.plugin === r.plugin)) : definitions;
    if (where.some((d) => d.name === r.name)) continue;
    if (out.length === MAX_LINES) {
      more++;
      continue;
    }
    const inLayer = r.layer ? ` in the ${r.layer} layer${r.plugin ? ` (plugin ${r.plugin})` : ""}` : "";
    const close = nearest(r.name, new Set(where.map((d) => d.name)));
    const elsewhere = r.layer && known.has(r.name) ? `; "${r.name}" exists in another layer` : "";
    out.push(`No skill is named "${r.name}"${inLayer} today: the rule matches nothing until one appears${elsewhere}.${close ? ` Did you mean "${close}"?` : ""}`);
  }
  if (more > 0) out.push(`${count(more, "more name")} ${plural(more, "matches", "match")} nothing today.`);
  return out;
}
