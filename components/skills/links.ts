// URLs of the skill pages. A skill is identified by layer + folder (plus plugin / project folder when needed).
import type { SkillRef } from "~/server/services/skills/location";

export function editorHref(ref: SkillRef, file?: string): string {
  const q = new URLSearchParams();
  if (ref.plugin) q.set("plugin", ref.plugin);
  if (ref.base && ref.base !== ".omniforge/skills") q.set("base", ref.base);
  if (file && file !== "SKILL.md") q.set("file", file);
  const qs = q.toString();
  return `/skills/${ref.layer}/${ref.skill.split("/").map(encodeURIComponent).join("/")}${qs ? `?${qs}` : ""}`;
}
