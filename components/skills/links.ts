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

export const LAYER_LABEL: Record<string, string> = { enterprise: "Enterprise", personal: "Personal", project: "Project", plugin: "Plugin" };

export const STATUS_STYLE: Record<string, string> = {
  active: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-200",
  shadowed: "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
  invalid: "bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-200",
  disabled: "bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-200",
  blocked: "bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-200",
  "out-of-scope": "bg-sky-100 text-sky-800 dark:bg-sky-900/50 dark:text-sky-200",
  "pending-approval": "bg-violet-100 text-violet-800 dark:bg-violet-900/50 dark:text-violet-200",
};

export const STATUS_LABEL: Record<string, string> = {
  active: "active",
  shadowed: "shadowed",
  invalid: "invalid",
  disabled: "disabled",
  blocked: "blocked",
  "out-of-scope": "out of scope",
  "pending-approval": "pending approval",
};
