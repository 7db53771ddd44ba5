// `omniforge init`: a project ready for skills: .omniforge/skills/ and one valid example skill to copy or delete.
// It never overwrites: what exists is left as it is and said so.
import fs from "node:fs";
import path from "node:path";
import { parseCommand } from "../args";
import type { CliIO } from "../io";

export const summary = "Create .omniforge/skills/ in the project with an example skill (never overwrites)";

const USAGE = `usage: omniforge init [--project DIR]
  Creates <project>/.omniforge/skills/ and .omniforge/skills/example-skill/SKILL.md (a valid skill to copy,
  then delete); anything already there is kept. Then: omniforge skill validate .omniforge/skills --recursive`;

const EXAMPLE = `---
name: example-skill
description: Shows the shape of a SKILL.md file made by omniforge init, to copy and then delete. Use when someone asks how to write or structure an agent skill, or what goes in a SKILL.md frontmatter.
---

# Example skill (delete this folder once you have your own)

This folder shows the shape of a skill; copy it, rename the folder and the name above (they must match: lowercase
letters, digits and hyphens), and describe in the description what the skill does and when to use it: that is
what an agent reads to choose it.

## Steps

1. Say what the skill is for.
2. Give the instructions an agent should follow, one step at a time.
3. Put long reference material in a references/ folder and scripts in a scripts/ folder, then link to them from here.
`;

export async function run(args: string[], io: CliIO): Promise<number> {
  const cmd = parseCommand("init", USAGE, args, { project: { type: "string" }, help: { type: "boolean", short: "h" } }, io);
  if (typeof cmd === "number") return cmd;
  const { values, positionals, fail } = cmd;
  if (positionals.length) {
    return fail(`unexpected argument "${positionals[0]}"`);
  }
  const project = path.resolve(io.cwd, values.project ?? ".");
  if (!fs.statSync(project, { throwIfNoEntry: false })?.isDirectory()) {
    io.err(`omniforge init: ${project} is not a folder\n`);
    return 2;
  }
  const skills = path.join(project, ".omniforge", "skills");
  const example = path.join(skills, "example-skill", "SKILL.md");
  const said: string[] = [];
  if (fs.existsSync(skills)) said.push(`kept ${path.relative(io.cwd, skills) || skills} (already there)`);
  else {
    fs.mkdirSync(skills, { recursive: true });
    said.push(`created ${path.relative(io.cwd, skills)}/`);
  }
  if (fs.existsSync(path.dirname(example))) said.push(`kept ${path.relative(io.cwd, path.dirname(example))}/ (already there)`);
  else {
    fs.mkdirSync(path.dirname(example));
    fs.writeFileSync(example, EXAMPLE, { flag: "wx" });
    said.push(`created ${path.relative(io.cwd, example)} (an example to copy, then delete)`);
  }
  io.out(said.join("\n") + `\nnext: omniforge skill validate ${path.relative(io.cwd, skills) || "."} --recursive\n`);
  return 0;
}
