// run_script: runs a script of an active skill through the ScriptRunner (the sandbox) and returns its
// exit code and output. Scripts are executed, never read: this is the tool the model is sent to.
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { inScriptFolder, SCRIPT_FOLDERS_TEXT } from "../../../domain/skill-protocol";
import { isInside, PathError } from "../paths";
import type { ActiveSkill, ToolContext, ToolDefinition, ToolRunOutput } from "../types";
import { NO_RUNNER, protocolScriptOutput, recordScriptExecuted } from "./script-output";
import { filterScriptEnv, resolveWorkdir } from "./script-env";

// Spec 004's input ({skill?, path, args[], env{}, workdir}) for every mode's script tool; `script` is our
// older name for `path` and stays an alias.
export const runScriptInput = z
  .object({
    path: z.string().min(1).optional().describe('Script path relative to the skill folder, e.g. "scripts/report.py"'),
    script: z.string().min(1).optional().describe("Same as path"),
    args: z.array(z.string()).max(256).optional().describe("Arguments passed to the script"),
    env: z.object({}).catchall(z.string()).optional().describe("Extra environment variables (PATH, LD_*, proxies and interpreter hooks are dropped)"),
    workdir: z.string().optional().describe('Folder to start in, inside the scratch folder (default ".", the scratch itself)'),
    stdin: z.string().optional(),
    skill: z.string().optional().describe("Which active skill the script belongs to (default: the most recently activated)"),
  })
  .refine((i) => !!(i.path ?? i.script), { message: "give the script's path" });
export type RunScriptInput = z.infer<typeof runScriptInput>;
type Input = RunScriptInput;
const scriptOf = (i: Input) => (i.path ?? i.script ?? "").trim();

/** How a person would type the interpreter for a script, by extension (for allowed-tools matching). */
const INTERPRETER_SPELLINGS: Record<string, string[]> = {
  ".py": ["python", "python3"],
  ".sh": ["bash", "sh"],
  ".bash": ["bash"],
  ".js": ["node"],
  ".mjs": ["node"],
  ".cjs": ["node"],
};

function shellQuote(a: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}

export function selectSkill(ctx: ToolContext, name?: string): ActiveSkill {
  const skill = name ? ctx.stack.find(name) : ctx.stack.top();
  if (!skill) {
    // In the mode's own words: orchestrated mode loads skills with skills.load, it has no activation tool.
    if (ctx.mode === "orchestrated") {
      throw new PathError(name ? `Skill '${name}' is not loaded; load it with skills.load first` : "No skill is loaded: load one with skills.load first");
    }
    throw new PathError(name ? `Skill '${name}' is not active; activate it before running its scripts` : "run_script needs an active skill: activate one first");
  }
  return skill;
}

/** The script path relative to the skill folder, "/"-separated; refuses anything that leaves it. */
export function skillRelativeScript(skill: ActiveSkill, script: string): string {
  let p = script.replace(/\\/g, "/").trim();
  if (p.includes("\0")) throw new PathError("The script path contains a NUL byte");
  const base = path.resolve(skill.baseDir);
  if (p.startsWith("/")) {
    let real: string | null = null;
    try {
      real = fs.realpathSync(base);
    } catch {}
    const abs = path.resolve(p);
    const root = isInside(base, abs) ? base : real && isInside(real, abs) ? real : null;
    if (!root) throw new PathError(`"${script}" is outside the folder of skill '${skill.name}'`);
    p = path.relative(root, abs).split(path.sep).join("/");
  }
  const norm = path.posix.normalize(p);
  if (norm === "." || norm === ".." || norm.startsWith("../")) throw new PathError(`"${script}" is not a file inside the folder of skill '${skill.name}'`);
  return norm.replace(/^\.\//, "");
}

/** The spellings of this run a person might write in allowed-tools: `scripts/x.py`, `./scripts/x.py`, `python scripts/x.py`. */
export function commandAlternatives(rel: string, args: string[] = []): string[] {
  const tail = args.length ? " " + args.map(shellQuote).join(" ") : "";
  const forms = [rel, `./${rel}`];
  const out = forms.map((f) => f + tail);
  for (const interp of INTERPRETER_SPELLINGS[path.extname(rel).toLowerCase()] ?? []) {
    for (const f of forms) out.push(`${interp} ${f}${tail}`);
  }
  return out;
}

/** The interpreter mapping in the tools' descriptions (the sandbox's rules, ../sandbox/script-path.ts). */
export const HOW_SCRIPTS_RUN =
  "How it runs: .py with python3, .sh and .bash with bash, .js, .mjs and .cjs with node; another file by its #! line, or itself when executable.";

export const runScriptTool: ToolDefinition<Input> = {
  name: "run_script",
  description:
    "Run a script of the active skill (path relative to the skill folder, e.g. scripts/report.py) with args, env and workdir, in the sandbox. " +
    `The script reads the skill folder at /skill (read-only) and writes to /scratch. ${HOW_SCRIPTS_RUN} Returns path, exit_code, stdout and stderr.`,
  inputSchema: runScriptInput,
  subject(i, ctx) {
    const skill = selectSkill(ctx, i.skill);
    return { commandAlternatives: commandAlternatives(skillRelativeScript(skill, scriptOf(i)), i.args) };
  },
  run: (i, ctx) => runSkillScript(ctx, i, "run_script"),
};

/** Shared by run_script and skills.run_script: confine, run through the ScriptRunner, audit. */
export async function runSkillScript(ctx: ToolContext, i: Input, tool: string): Promise<ToolRunOutput> {
  const skill = selectSkill(ctx, i.skill);
  const rel = skillRelativeScript(skill, scriptOf(i));
  // Spec 004 runs scripts of the skill's script folders; SKILL.md, references and assets are not programs.
  if (!inScriptFolder(rel)) throw new PathError(`${rel} is not a script of skill '${skill.name}': only files under ${SCRIPT_FOLDERS_TEXT} are run`);
  const workdir = resolveWorkdir(ctx.scratchDir, i.workdir);
  const env = filterScriptEnv(i.env);
  // Confirm the file really is inside the skill folder (a symlink may point anywhere); the sandbox checks again.
  let real: string;
  let realBase: string;
  try {
    realBase = fs.realpathSync(skill.baseDir);
    real = fs.realpathSync(path.join(skill.baseDir, rel));
  } catch {
    throw new PathError(`Script not found: ${rel} in skill '${skill.name}'`);
  }
  if (!isInside(realBase, real) || real === realBase) throw new PathError(`"${rel}" leaves the folder of skill '${skill.name}' through a symlink`);
  if (!fs.statSync(real).isFile()) throw new PathError(`${rel} is not a file`);
  if (!ctx.runner) return { ok: false, output: NO_RUNNER, error: NO_RUNNER };
  const result = await ctx.runner.run({
    skillDir: skill.baseDir,
    script: rel,
    args: i.args ?? [],
    scratchDir: ctx.scratchDir,
    ...(Object.keys(env.env).length ? { env: env.env } : {}),
    ...(workdir ? { workdir } : {}),
    ...(i.stdin !== undefined ? { stdin: i.stdin } : {}),
  });
  recordScriptExecuted(ctx, tool, skill, result);
  return protocolScriptOutput(rel, result, { workdir, dropped: env.dropped });
}
