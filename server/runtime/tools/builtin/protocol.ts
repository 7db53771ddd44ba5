// The orchestrated-mode tools of spec 004 that touch files: skills.read and skills.run_script.
// They act on one loaded skill (named, or the most recent), honour the same confinement, script-read
// blocking and allowed-tools mapping (Read -> skills.read, Bash -> skills.run_script) as read_file and
// run_script. skills.load / skills.unload need the registry and live with the agent; they can use
// activateSkill/deactivateSkill from ../lifecycle.
import path from "node:path";
import { z } from "zod";
import { displayPath, isInside, lexicalPath, PathError, readTextCapped, resolveForRead } from "../paths";
import type { ToolDefinition } from "../types";
import { DEFAULT_MAX_READ_BYTES } from "./read-file";
import { commandAlternatives, runSkillScript, selectSkill, skillRelativeScript } from "./run-script";

const readInput = z.object({
  path: z.string().min(1).describe("Path relative to the skill's root_dir, e.g. references/forms.md"),
  skill: z.string().optional().describe("Which loaded skill (default: the most recently loaded)"),
  offset: z.number().int().min(1).optional(),
  limit: z.number().int().min(1).optional(),
});

export const skillsReadTool: ToolDefinition<z.infer<typeof readInput>> = {
  name: "skills.read",
  description: "Read a file of a loaded skill (references/, assets/, ...), relative to its root_dir. Scripts are run with skills.run_script, not read.",
  inputSchema: readInput,
  subject: (i, ctx) => {
    const skill = selectSkill(ctx, i.skill);
    return { path: displayPath(lexicalPath(ctx, i.path, skill.baseDir), ctx) };
  },
  run(i, ctx) {
    const skill = selectSkill(ctx, i.skill);
    const r = resolveForRead(ctx, i.path, { base: skill.baseDir });
    // skills.read reads that skill's own files only, not the scratch or another skill.
    if (r.root.kind !== "skill" || r.root.skill !== skill.name || !isInside(path.resolve(skill.baseDir), r.abs)) {
      throw new PathError(`"${i.path}" is not a file of skill '${skill.name}'`);
    }
    const rel = path.relative(path.resolve(skill.baseDir), r.abs).split(path.sep).join("/");
    const res = readTextCapped(r.real, rel, ctx.maxReadBytes ?? DEFAULT_MAX_READ_BYTES, i.offset, i.limit);
    return { output: res.text, data: { skill: skill.name, path: rel, size: res.size, binary: res.binary, truncated: res.truncated } };
  },
};

const runInput = z.object({
  path: z.string().min(1).describe('Script path relative to the skill\'s root_dir, e.g. "scripts/extract.py"'),
  args: z.array(z.string()).max(256).optional(),
  stdin: z.string().optional(),
  skill: z.string().optional().describe("Which loaded skill (default: the most recently loaded)"),
});

export const skillsRunScriptTool: ToolDefinition<z.infer<typeof runInput>> = {
  name: "skills.run_script",
  description:
    "Run a script of a loaded skill in the sandbox (.py with python3, .sh with bash, .js with node). The skill folder is /skill (read-only), the working folder /scratch. Returns exit_code, stdout, stderr.",
  inputSchema: runInput,
  subject(i, ctx) {
    const skill = selectSkill(ctx, i.skill);
    return { commandAlternatives: commandAlternatives(skillRelativeScript(skill, i.path), i.args) };
  },
  run: (i, ctx) =>
    runSkillScript(ctx, { script: i.path, ...(i.args ? { args: i.args } : {}), ...(i.stdin !== undefined ? { stdin: i.stdin } : {}), ...(i.skill ? { skill: i.skill } : {}) }, "skills.run_script"),
};
