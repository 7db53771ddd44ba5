// `omniforge skill to-prompt <path>...`: the <available_skills> XML block (skills-ref format) for a system
// prompt. Like skills-ref, a skill that cannot be loaded fails the whole command (exit 1) rather than
// silently producing a shorter list.
import { parseCommand } from "../args";
import type { CliIO } from "../io";
import { printable, printableLines } from "../printable";
import { checkSkillDir, toPrompt, type SkillCheck } from "../../runtime/skill/index";
import { display, skillDirOf } from "./skill-validate";

export const summary = "Print the <available_skills> XML block for skill folders";

const USAGE = `usage: omniforge skill to-prompt <path>...
  <path>  a skill folder or its SKILL.md
`;

export async function run(args: string[], io: CliIO): Promise<number> {
  const cmd = parseCommand("skill to-prompt", USAGE, args, { help: { type: "boolean", short: "h" } }, io);
  if (typeof cmd === "number") return cmd;
  const { values, positionals, fail } = cmd;
  if (positionals.length === 0) {
    return fail(`give at least one skill folder`);
  }
  const checks: SkillCheck[] = [];
  for (const arg of positionals) {
    const target = skillDirOf(arg, io);
    if ("error" in target) {
      io.err(`omniforge skill to-prompt: ${printable(target.error)}\n`);
      return 2;
    }
    checks.push(checkSkillDir(target.dir));
  }
  const broken = checks.filter((c) => !c.loadable);
  for (const c of broken) {
    const first = c.diagnostics.find((d) => d.severity === "error");
    io.err(`omniforge skill to-prompt: ${printable(`${display(c.dir, io)}: ${first?.message ?? "no loadable frontmatter"}`)}\n`);
  }
  if (broken.length) return 1;
  // XML 1.0 cannot hold control characters (a description's ESC, NUL...) even as references, and a terminal would
  // obey them: written out as \uXXXX text, as everywhere the CLI prints what files say. Line breaks stay.
  io.out(printableLines(toPrompt(checks)) + "\n");
  return 0;
}
