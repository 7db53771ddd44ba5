// The editor's "Agent view": what each disclosure mode sends about this skill, from the runtime's own
// listing and activation code (runtime/agent/disclosure.ts), for the SKILL.md as saved on disk, since that is
// what an agent loads.
import { disclosurePreview } from "../../runtime/agent/disclosure";
import { entryFor } from "../../runtime/registry/scan";
import type { SkillsContext } from "./context";
import { existingSkillDir } from "./edit";
import { notFound } from "./errors";
import { layerRootOf, type SkillRef } from "./location";

export async function skillDisclosure(ctx: SkillsContext, input: SkillRef) {
  const { ref, dir } = existingSkillDir(ctx, input, "read");
  const entry = entryFor({ layer: ref.layer, dir: layerRootOf(ctx.dataHome, ref), ...(ref.plugin ? { plugin: ref.plugin } : {}) }, dir, undefined, { checks: "frontmatter", scriptDigests: false });
  if (!entry) throw notFound(`${ref.skill} has no SKILL.md.`);
  if (!entry.loadable) return { loadable: false as const, name: entry.name, modes: null };
  return { loadable: true as const, name: entry.name, modes: await disclosurePreview(entry) };
}
