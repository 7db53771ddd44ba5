// Editor | Evals: the two views of one skill (the evals view is the editor page with ?view=evals).
import Link from "next/link";
import { editorHref } from "~/components/skills/links";
import type { SkillRef } from "./types";

// The page's ref carries ownerId only when it was opened with ?owner= (an admin reviewing a user's skill): keep it.
const viewHref = (ref: SkillRef) => editorHref(ref, undefined, ref.ownerId ? "" : undefined);
export const evalsHref = (ref: SkillRef) => viewHref(ref) + (viewHref(ref).includes("?") ? "&" : "?") + "view=evals";

export function SkillViewTabs({ skillRef, current }: { skillRef: SkillRef; current: "editor" | "evals" }) {
  const tab = (label: string, href: string, on: boolean) => (
    <Link role="tab" aria-selected={on} href={href} className={`btn px-2 py-1 text-xs ${on ? "btn-primary" : ""}`}>
      {label}
    </Link>
  );
  return (
    <nav className="flex gap-1" role="tablist" aria-label="Skill views">
      {tab("Editor", viewHref(skillRef), current === "editor")}
      {tab("Evals", evalsHref(skillRef), current === "evals")}
    </nav>
  );
}
