// The `skill` tool (tool disclosure mode): activate a skill (its body and base path come back to the model)
// or deactivate the most recent one / all. It stays callable under any restriction, so an agent can always
// drop a skill that cannot do the task. Resolution is the host's: the registry is passed in as `resolve`.
import { z } from "zod";
import { activateSkill, deactivateSkill } from "../lifecycle";
import { editDistance } from "../../skill/fields";
import { SkillStackError } from "../stack";
import type { ActiveSkill, ToolDefinition } from "../types";

/** What activation needs from the registry: the winning skill of that name, with its body. */
export interface SkillForActivation extends Omit<ActiveSkill, "activatedBy"> {
  body: string;
}

export interface SkillToolOptions {
  resolve(name: string): Promise<SkillForActivation | null> | SkillForActivation | null;
  /** The full description, e.g. with `<available_skills>` (tool mode); a plain one by default. */
  description?: string;
  /** Names this caller may activate (never a blocked one): a miss suggests the closest. */
  names?: () => Iterable<string>;
}

/** "Skill 'pdf-procesing' not found. Did you mean 'pdf-processing'?" (closest by edit distance, when close). */
export function notFoundMessage(name: string, names: Iterable<string> = []): string {
  const list = [...names];
  let best: string | null = null;
  let bestD = Infinity;
  for (const n of list) {
    const d = editDistance(name.toLowerCase(), n.toLowerCase());
    if (d < bestD) [best, bestD] = [n, d];
  }
  const close = best !== null && bestD <= Math.max(2, Math.floor(name.length / 4));
  return `Skill '${name}' not found.${close ? ` Did you mean '${best}'?` : ""}`;
}

const input = z.object({
  name: z.string().min(1).describe('Skill name; for deactivate, the most recently activated skill or "all"'),
  action: z.enum(["activate", "deactivate"]).optional().describe("Default: activate"),
  args: z.string().optional().describe("Arguments for the skill (what to work on); they come back with its instructions"),
});

export function createSkillTool(opts: SkillToolOptions): ToolDefinition<z.infer<typeof input>> {
  return {
    name: "skill",
    description:
      opts.description ??
      "Activate a skill by name to receive its instructions and base path, or deactivate the most recently activated skill (name, action: deactivate; \"all\" clears).",
    inputSchema: input,
    async run(i, ctx) {
      const name = i.name.trim();
      if ((i.action ?? "activate") === "deactivate") {
        try {
          const removed = deactivateSkill(ctx, name);
          const now = ctx.stack.list().map((s) => s.name);
          return {
            output: `Deactivated ${removed.map((s) => `'${s.name}'`).join(", ") || "nothing"}. Active skills now: ${now.join(", ") || "none"}.`,
            data: { deactivated: removed.map((s) => s.name), active: now },
          };
        } catch (e) {
          if (e instanceof SkillStackError) return { ok: false, output: e.message, error: e.message };
          throw e;
        }
      }
      const skill = await opts.resolve(name);
      if (!skill) return { ok: false, output: notFoundMessage(name, opts.names?.()), error: "unknown_skill" };
      const { body, ...entry } = skill;
      const args = i.args?.trim();
      const how = activateSkill(ctx, entry, args);
      const restriction = entry.allowedTools?.length
        ? `While it is active only these tools may be used: ${entry.allowedTools.join(", ")} (the skill tool stays available).`
        : "It does not restrict tools.";
      return {
        output:
          `Skill '${entry.name}' ${how === "reactivated" ? "re-activated (moved to the top)" : "activated"}. Base path: ${entry.baseDir}\n` +
          `${restriction}\nRelative paths in the skill resolve against the base path. Run its scripts with run_script; do not read them.\n\n${body}` +
          (args ? `\n\nARGUMENTS: ${args}` : ""),
        data: { name: entry.name, layer: entry.layer, digest: entry.digest, baseDir: entry.baseDir, allowedTools: entry.allowedTools ?? null, status: how, ...(args ? { args } : {}) },
      };
    },
  };
}
