// The two outputs skills-ref defines, in its exact format: the read-properties JSON object and the
// <available_skills> block for a system prompt (one element per line, HTML-escaped, absolute SKILL.md path).
import type { SkillCheck } from "./types";

/** Python's html.escape(s, quote=True). */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : "&#x27;"));
}

/**
 * skills-ref's read-properties object: name, description, then license, compatibility, allowed-tools (one string)
 * and metadata when present. Throws when the skill cannot be loaded (no name/description, broken frontmatter).
 */
export function readProperties(check: SkillCheck): Record<string, unknown> {
  if (!check.loadable || !check.raw || !check.properties) {
    const first = check.diagnostics.find((d) => d.severity === "error");
    throw new Error(first ? first.message : `${check.file ?? check.dir} has no loadable frontmatter.`);
  }
  const raw = check.raw;
  const out: Record<string, unknown> = {
    name: (raw.name as string).trim(),
    description: (raw.description as string).trim(),
  };
  // An optional field given empty is absent, as skills-ref reads it.
  if (typeof raw.license === "string" && raw.license !== "") out.license = raw.license;
  if (typeof raw.compatibility === "string" && raw.compatibility !== "") out.compatibility = raw.compatibility;
  const tools = raw["allowed-tools"];
  if (typeof tools === "string") {
    if (tools !== "") out["allowed-tools"] = tools;
  }
  else if (Array.isArray(tools) && tools.every((t) => typeof t === "string")) out["allowed-tools"] = tools.join(" ");
  const meta = raw.metadata;
  if (meta && typeof meta === "object" && !Array.isArray(meta) && Object.keys(meta).length > 0) {
    // skills-ref stringifies every metadata value.
    out.metadata = Object.fromEntries(Object.entries(meta).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
  }
  return out;
}

/** JSON text exactly as skills-ref prints it (Python json.dumps, indent 2, non-ASCII escaped). */
export function formatPropertiesJson(props: Record<string, unknown>): string {
  return JSON.stringify(props, null, 2).replace(/[\u007f-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}

/**
 * The <available_skills> block. Skills that cannot be loaded are left out (callers report them). The name is
 * printed as written in the file (surrounding whitespace stripped, not NFKC-normalised), as skills-ref prints
 * it; matching and activation use the normalised `properties.name`.
 */
export function toPrompt(skills: SkillCheck[]): string {
  const lines = ["<available_skills>"];
  for (const skill of skills) {
    if (!skill.properties || !skill.file) continue;
    lines.push(
      "<skill>",
      "<name>",
      escapeHtml(typeof skill.raw?.name === "string" ? skill.raw.name.trim() : skill.properties.name),
      "</name>",
      "<description>",
      escapeHtml(skill.properties.description),
      "</description>",
      "<location>",
      escapeHtml(skill.file),
      "</location>",
      "</skill>",
    );
  }
  lines.push("</available_skills>");
  return lines.join("\n");
}
