// `omniforge init`: a project ready for skills: .omniforge/skills/ and one valid example skill to copy or delete,
// with a trigger set, so `omniforge skill eval` has something to run from the start. It never overwrites: what
// exists is left as it is and said so.
import fs from "node:fs";
import path from "node:path";
import { parseCommand } from "../args";
import { errorLine } from "../error-line";
import type { CliIO } from "../io";
import { printable } from "../printable";

export const summary = "Create .omniforge/skills/ in the project with an example skill (never overwrites)";

const USAGE = `usage: omniforge init [--project DIR]
  Creates <project>/.omniforge/skills/ and .omniforge/skills/example-skill/ (a valid skill to copy, then delete:
  its SKILL.md and evals/triggers.json, requests that should and should not choose it); anything already there
  is kept. Then: omniforge skill validate .omniforge/skills, and omniforge skill eval example-skill`;

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
  const unfit = unfitProject(project);
  if (unfit) {
    io.err(`omniforge init: ${printable(project)}: ${unfit}\n`);
    return 2;
  }
  const skills = path.join(project, ".omniforge", "skills");
  const exampleDir = path.join(skills, "example-skill");
  const example = path.join(exampleDir, "SKILL.md");
  const triggers = path.join(exampleDir, "evals", "triggers.json");
  const shown = (p: string) => printable(path.relative(io.cwd, p) || p);
  const said: string[] = [];
  try {
    if (isFolder(skills)) said.push(`kept ${shown(skills)} (already there)`);
    else {
      makeFolders(project, ".omniforge", "skills");
      said.push(`created ${shown(skills)}/`);
    }
    if (isFolder(exampleDir)) said.push(`kept ${shown(exampleDir)}/ (already there)`);
    else {
      makeFolders(skills, "example-skill", "evals");
      fs.writeFileSync(example, EXAMPLE, { flag: "wx" });
      fs.writeFileSync(triggers, EXAMPLE_TRIGGERS, { flag: "wx" });
      said.push(`created ${shown(example)} (an example to copy, then delete)`);
      said.push(`created ${shown(triggers)} (requests that should and should not choose it)`);
    }
  } catch (e) {
    // What was made stays and is said: a second run keeps it and makes the rest.
    if (said.length) io.out(said.join("\n") + "\n");
    io.err(`omniforge init: ${errorLine(e)}\n`);
    return 1;
  }
  io.out(said.join("\n") + `\nnext: omniforge skill validate ${shown(skills) || "."}\n      omniforge skill eval example-skill\n`);
  return 0;
}

/**
 * File systems that are views of the kernel, not storage: creating a folder there fails in ways that confuse
 * Node's recursive mkdir (under /proc/<pid> it gets ENOENT for the parent that exists and loops forever).
 * statfs(2) f_type magic numbers, from linux/magic.h.
 */
const KERNEL_FILE_SYSTEMS: Record<number, string> = {
  0x9fa0: "proc",
  0x62656572: "sysfs",
  0x27e0eb: "cgroup",
  0x63677270: "cgroup2",
  0x64626720: "debugfs",
  0x74726163: "tracefs",
  0x73636673: "securityfs",
  0x1cd1: "devpts",
  0x62656570: "configfs",
  0xcafe4a11: "bpf",
  0x6165676c: "pstore",
  0xde5e81e4: "efivarfs",
  0x65735543: "fusectl",
  0x42494e4d: "binfmt_misc",
  0x19800202: "mqueue",
};

/** Why `dir` cannot take a project's skills folder, or null: checked before anything is made. */
function unfitProject(dir: string): string | null {
  const st = fs.statSync(dir, { throwIfNoEntry: false });
  if (!st?.isDirectory()) return "not a folder";
  let kind: string | undefined;
  try {
    kind = KERNEL_FILE_SYSTEMS[fs.statfsSync(dir).type >>> 0];
  } catch {
    // statfs unsupported here: the write below says what is wrong, if anything
  }
  if (kind) return `a folder of the kernel's ${kind} file system, not a project: give your project's folder`;
  try {
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.X_OK);
  } catch (e) {
    return `${(e as NodeJS.ErrnoException).code === "EROFS" ? "on a read-only file system" : "this user may not write in it"}: run in a folder of yours, or pass --project`;
  }
  return null;
}

/** True for a folder, false when nothing is there; throws (said as one line) when something else is in the way. */
function isFolder(p: string): boolean {
  const st = fs.statSync(p, { throwIfNoEntry: false });
  if (st && !st.isDirectory()) throw new Error(`${p} is in the way: it is not a folder; move it away and run init again`);
  return !!st;
}

/** Makes base/a/b... one level at a time (never `recursive: true`, see KERNEL_FILE_SYSTEMS); existing ones are kept. */
function makeFolders(base: string, ...names: string[]): void {
  let dir = base;
  for (const name of names) {
    dir = path.join(dir, name);
    try {
      fs.mkdirSync(dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      isFolder(dir);
    }
  }
}
