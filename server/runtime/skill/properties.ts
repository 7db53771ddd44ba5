// The lenient view of a skill's frontmatter that an agent loads (SkillProperties).
import type { SkillProperties, SkillScope } from "./types";
import { parseAllowedTools } from "./allowed-tools";
import { resolveInsideSkill } from "./paths";
import { isEmptyOptional, NUMBER, SCOPE_KEYS } from "./field-values";
import { nfkc } from "./name-rule";

const splitList = (s: string) => s.split(/[\s,]+/).filter(Boolean);
/** A list field (tags, scope lists) as agents read it: a YAML list, or words split on commas and spaces. */
export const stringList = (v: unknown): string[] | undefined =>
  typeof v === "string" ? splitList(v) : Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : undefined;

/**
 * The lenient view an agent loads: set whenever the frontmatter is a mapping with a non-empty string name and
 * description, whatever the rule set says about the rest. Ill-typed optional fields are left out, except
 * allowed-tools: present but unreadable means no tool is pre-approved (fail closed), never "all tools".
 */
export function extractProperties(raw: Record<string, unknown> | null): SkillProperties | null {
  if (!raw) return null;
  const { name, description } = raw;
  if (typeof name !== "string" || !name.trim() || typeof description !== "string" || !description.trim()) return null;
  const p: SkillProperties = { name: nfkc(name.trim()), description: description.trim() };
  if (Object.values(raw).includes("")) raw = Object.fromEntries(Object.entries(raw).filter(([k, v]) => !isEmptyOptional(k, v)));
  if (typeof raw.license === "string") p.license = raw.license;
  if (typeof raw.compatibility === "string") p.compatibility = raw.compatibility;
  const meta = raw.metadata;
  if (meta && typeof meta === "object" && !Array.isArray(meta)) {
    const strings: Record<string, string> = {};
    for (const [k, v] of Object.entries(meta)) if (typeof v === "string") strings[k] = v;
    p.metadata = strings;
  }
  if (Object.prototype.hasOwnProperty.call(raw, "allowed-tools")) p.allowedTools = parseAllowedTools(raw["allowed-tools"]);
  if (typeof raw.model === "string" && raw.model.trim()) p.model = raw.model.trim();
  if (raw.context === "inherit" || raw.context === "fork") p.context = raw.context;
  if (typeof raw.agent === "string" && raw.agent.trim()) p.agent = raw.agent.trim();
  const hooks = raw.hooks;
  if (hooks && typeof hooks === "object" && !Array.isArray(hooks)) {
    const h: { pre?: string; post?: string } = {};
    for (const key of ["pre", "post"] as const) {
      const v = (hooks as Record<string, unknown>)[key];
      const resolved = typeof v === "string" ? resolveInsideSkill(v) : null;
      if (resolved?.ok) h[key] = resolved.path; // only confined paths ever reach the runtime
    }
    if (h.pre || h.post) p.hooks = h;
  }
  if (typeof raw.priority === "string" && NUMBER.test(raw.priority.trim())) p.priority = Number(raw.priority);
  if (raw.disabled === true || (typeof raw.disabled === "string" && raw.disabled.trim().toLowerCase() === "true")) p.disabled = true;
  const tags = stringList(raw.tags);
  if (tags) p.tags = tags;
  const scope = raw.scope;
  if (scope && typeof scope === "object" && !Array.isArray(scope)) {
    const s: SkillScope = {};
    for (const key of SCOPE_KEYS) {
      const list = stringList((scope as Record<string, unknown>)[key]);
      if (list) s[key] = list;
    }
    p.scope = s;
  }
  return p;
}
