// URLs of the skill pages. A skill is identified by layer + folder (plus plugin / project folder when needed).
import type { SkillRef } from "~/components/editor/types";

/** `me`: the signed-in user's id, so a personal skill of someone else (an administrator's review) names its owner. */
export function editorHref(ref: SkillRef, file?: string, me?: string): string {
  const q = new URLSearchParams();
  if (ref.plugin) q.set("plugin", ref.plugin);
  if (ref.layer === "personal" && ref.ownerId && me !== undefined && ref.ownerId !== me) q.set("owner", ref.ownerId);
  if (ref.base && ref.base !== ".omniforge/skills") q.set("base", ref.base);
  if (ref.source) q.set("source", ref.source);
  if (file && file !== "SKILL.md") q.set("file", file);
  const qs = q.toString();
  return `/skills/${ref.layer}/${ref.skill.split("/").map(encodeURIComponent).join("/")}${qs ? `?${qs}` : ""}`;
}

/**
 * Back to the skill list from a skill's page. The page's ref carries ownerId only when an administrator opened a
 * user's personal skill (?owner=): the list then shows that user's skills again, where the review started.
 */
export function skillsListHref(ref: SkillRef): string {
  return ref.ownerId ? `/skills?owner=${encodeURIComponent(ref.ownerId)}` : "/skills";
}
