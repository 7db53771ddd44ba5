// What agents get when the definition open in the editor is not the one they are served (issue 41 item 8): one
// sentence from the registry's resolution of the name (the Layers page's chain), said above the editor instead of
// a grey badge. Null for the definition agents get.
import type { Explanation } from "./matrix";

export interface ServedInstead {
  status: Explanation["chain"][number]["status"];
  sentence: string;
}

type Link = Explanation["chain"][number];

const definitionOf = (l: Pick<Link, "layer" | "plugin">) => (l.plugin ? `plugin "${l.plugin}"` : l.layer);
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const minute = (t: number) => `${new Date(t).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** The sentence for definition `id` of an explained name, or null when agents get it (or it is not in the chain). */
export function servedInstead(ex: Explanation, id: string): ServedInstead | null {
  const link = ex.chain.find((c) => c.id === id);
  if (!link || link.status === "active") return null;
  const active = ex.chain.find((c) => c.id === ex.activeId);
  const instead = active ? `agents get the ${definitionOf(active)} definition` : "no definition of this name is served";
  const sentence = (() => {
    switch (link.status) {
      case "shadowed":
        if (!active) return `Not served: ${link.reason}.`;
        return active.layer !== link.layer
          ? `Agents get the ${definitionOf(active)} definition: ${active.layer} outranks ${link.layer} (${link.reason}).`
          : `Agents get the ${definitionOf(active)} definition at ${active.where}: ${link.reason}.`;
      // The registry's reasons already say "blocked by policy: ..." / "disabled ...".
      case "blocked":
      case "disabled":
        return `${cap(link.reason)} (${instead}).`;
      case "pending-approval": {
        const a = link.approval;
        if (a?.status === "rejected") return `This version was rejected${a.decidedBy ? ` by ${a.decidedBy}` : ""}${a.comment ? `: "${a.comment}"` : ""}; ${instead}.`;
        return `Waiting for approval${a?.requestedAt ? ` since ${minute(a.requestedAt)}` : ""} (${link.reason}): ${instead}.`;
      }
      case "out-of-scope":
        return `Out of scope: ${link.reason}; ${instead}.`;
      case "invalid":
        return `Does not load: ${link.reason}; ${instead}.`;
    }
  })();
  return { status: link.status, sentence };
}
