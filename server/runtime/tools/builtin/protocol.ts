// The orchestrated-mode tools of spec 004 that touch files: skills.read and skills.run_script.
// They act on one loaded skill (named, or the most recent), honour the same confinement, script-read
// blocking and allowed-tools mapping (Read -> skills.read, Bash -> skills.run_script) as read_file and
// run_script. skills.load / skills.unload need the registry and live with the agent; they can use
// activateSkill/deactivateSkill from ../lifecycle.
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { displayPath, isInside, lexicalPath, PathError, readTextCapped, resolveForRead } from "../paths";
import type { ToolDefinition } from "../types";
import { DEFAULT_MAX_READ_BYTES } from "./read-file";
import { commandAlternatives, HOW_SCRIPTS_RUN, runScriptInput, runSkillScript, selectSkill, skillRelativeScript, type RunScriptInput } from "./run-script";

const readInput = z.object({
  path: z.string().min(1).describe("Path relative to the skill's root_dir, e.g. references/forms.md"),
  skill: z.string().optional().describe("Which loaded skill (default: the most recently loaded)"),
  offset: z.number().int().min(1).optional(),
  limit: z.number().int().min(1).optional(),
});

const LISTED_FILES = 20;

/** Up to LISTED_FILES files of a skill folder ("/"-separated, shallow first, dot-files skipped) and how many more there are. */
export function skillFiles(root: string): { files: string[]; more: number } {
  const files: string[] = [];
  let total = 0;
  const queue = [""];
  while (queue.length) {
    const rel = queue.shift()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    } catch {
      continue;
    }
    for (const e of entries) {
      if (e.name.startsWith(".")) continue;
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) queue.push(p);
      else if (total++ < LISTED_FILES) files.push(p);
    }
  }
  return { files, more: Math.max(0, total - files.length) };
}

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
    let r: ReturnType<typeof resolveForRead>;
    try {
      r = resolveForRead(ctx, i.path, { base: skill.baseDir });
    } catch (e) {
      // A wrong guess at a file name gets the real names, so the next call can be right.
      if (!(e instanceof PathError) || !fs.existsSync(skill.baseDir) || fs.existsSync(lexicalPath(ctx, i.path, skill.baseDir))) throw e;
      const { files, more } = skillFiles(skill.baseDir);
      throw new PathError(`No file "${i.path}" in skill '${skill.name}'. Its files: ${files.join(", ") || "(none)"}${more ? ` and ${more} more` : ""}.`);
    }
    // skills.read reads that skill's own files only, not the scratch or another skill.
    if (r.root.kind !== "skill" || r.root.skill !== skill.name || !isInside(path.resolve(skill.baseDir), r.abs)) {
      throw new PathError(`"${i.path}" is not a file of skill '${skill.name}'`);
    }
    const rel = path.relative(path.resolve(skill.baseDir), r.abs).split(path.sep).join("/");
    const res = readTextCapped(r.real, rel, ctx.maxReadBytes ?? DEFAULT_MAX_READ_BYTES, i.offset, i.limit);
    return { output: res.text, data: { skill: skill.name, path: rel, size: res.size, binary: res.binary, truncated: res.truncated } };
  },
};

export const skillsRunScriptTool: ToolDefinition<RunScriptInput> = {
  name: "skills.run_script",
  description:
    `Run a script of a loaded skill in the sandbox ({skill?, path, args[], env{}, workdir}). ${HOW_SCRIPTS_RUN} The skill folder is /skill (read-only), workdir a folder in /scratch (default /scratch). Returns path, exit_code, stdout, stderr.`,
  inputSchema: runScriptInput,
  subject(i, ctx) {
    const skill = selectSkill(ctx, i.skill);
    return { commandAlternatives: commandAlternatives(skillRelativeScript(skill, (i.path ?? i.script ?? "").trim()), i.args) };
  },
  run: (i, ctx) => runSkillScript(ctx, i, "skills.run_script"),
};
