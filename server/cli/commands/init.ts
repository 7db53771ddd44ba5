// `omniforge init`: a project ready for skills: .omniforge/skills/ and one valid example skill to copy or delete,
// with a trigger set, so `omniforge skill eval` has something to run from the start. It never overwrites: what
// exists is left as it is and said so.
import fs from "node:fs";
import path from "node:path";
import { parseCommand } from "../args";
import type { CliIO } from "../io";

export const summary = "Create .omniforge/skills/ in the project with an example skill (never overwrites)";

const USAGE = `usage: omniforge init [--project DIR]
  Creates <project>/.omniforge/skills/ and .omniforge/skills/example-skill/ (a valid skill to copy, then delete:
  its SKILL.md and evals/triggers.json, requests that should and should not choose it); anything already there
  is kept. Then: omniforge skill validate .omniforge/skills --recursive, and omniforge skill eval example-skill`;

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

Whether an agent chooses a skill for a request is tested with the requests in evals/triggers.json: edit them to
your skill's, then run \`omniforge skill eval <name>\`.
`;

/** skill-creator's trigger-set format: requests that should choose the example, and near misses that should not. */
const EXAMPLE_TRIGGERS = `${JSON.stringify(
  [
    { query: "How do I write the frontmatter of a SKILL.md file?", should_trigger: true },
    { query: "What should an agent skill's SKILL.md contain, and how is it structured?", should_trigger: true },
    { query: "Convert this CSV file of orders to JSON", should_trigger: false },
    { query: "Write a commit message for my staged changes", should_trigger: false },
  ],
  null,
  2,
)}\n`;

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
    fs.mkdirSync(path.join(path.dirname(example), "evals"), { recursive: true });
    fs.writeFileSync(example, EXAMPLE, { flag: "wx" });
    const triggers = path.join(path.dirname(example), "evals", "triggers.json");
    fs.writeFileSync(triggers, EXAMPLE_TRIGGERS, { flag: "wx" });
    said.push(`created ${path.relative(io.cwd, example)} (an example to copy, then delete)`);
    said.push(`created ${path.relative(io.cwd, triggers)} (requests that should and should not choose it)`);
  }
  io.out(said.join("\n") + `\nnext: omniforge skill validate ${path.relative(io.cwd, skills) || "."} --recursive\n      omniforge skill eval example-skill\n`);
  return 0;
}
