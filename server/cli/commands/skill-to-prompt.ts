// `omniforge skill to-prompt <path>...`: the <available_skills> XML block (skills-ref format) for a system
// prompt. Like skills-ref, a skill that cannot be loaded fails the whole command (exit 1) rather than
// silently producing a shorter list.
import type { CliIO } from "../io";
import { checkSkillDir, toPrompt, type SkillCheck } from "../../runtime/skill/index";
import { display, parseCommandArgs, skillDirOf } from "./skill-validate";

export const summary = "Print the <available_skills> XML block for skill folders";

const USAGE = `usage: omniforge skill to-prompt <path>...
  <path>  a skill folder or its SKILL.md
`;

export async function run(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommandArgs(args, { help: { type: "boolean", short: "h" } } as const);
  if (typeof parsed === "string") {
    io.err(`omniforge skill to-prompt: ${parsed}\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    io.out(USAGE);
    return 0;
  }
  if (parsed.positionals.length === 0) {
    io.err(`omniforge skill to-prompt: give at least one skill folder\n${USAGE}`);
    return 2;
  }
  const checks: SkillCheck[] = [];
  for (const arg of parsed.positionals) {
    const target = skillDirOf(arg, io);
    if ("error" in target) {
      io.err(`omniforge skill to-prompt: ${target.error}\n`);
      return 2;
    }
    checks.push(checkSkillDir(target.dir));
  }
  const broken = checks.filter((c) => !c.loadable);
  for (const c of broken) {
    const first = c.diagnostics.find((d) => d.severity === "error");
    io.err(`Error: ${display(c.dir, io)}: ${first?.message ?? "no loadable frontmatter"}\n`);
  }
  if (broken.length) return 1;
  io.out(toPrompt(checks) + "\n");
  return 0;
}
