// `omniforge skill read-properties <path>`: the frontmatter as JSON, in skills-ref's exact shape and format,
// so scripts written against skills-ref keep working. Exit 1 when the skill cannot be loaded.
import { parseCommand } from "../args";
import type { CliIO } from "../io";
import { printable } from "../printable";
import { checkSkillDir, formatPropertiesJson, readProperties } from "../../runtime/skill/index";
import { skillDirOf } from "./skill-validate";

export const summary = "Print a skill's frontmatter properties as JSON (skills-ref format)";

const USAGE = `usage: omniforge skill read-properties <path>
  <path>  a skill folder or its SKILL.md
`;

export async function run(args: string[], io: CliIO): Promise<number> {
  const cmd = parseCommand("skill read-properties", USAGE, args, { help: { type: "boolean", short: "h" } }, io);
  if (typeof cmd === "number") return cmd;
  const { values, positionals, fail } = cmd;
  if (positionals.length !== 1) {
    return fail(`give exactly one skill folder`);
  }
  const target = skillDirOf(positionals[0]!, io);
  if ("error" in target) {
    io.err(`omniforge skill read-properties: ${printable(target.error)}\n`);
    return 2;
  }
  try {
    io.out(formatPropertiesJson(readProperties(checkSkillDir(target.dir))) + "\n");
    return 0;
  } catch (e) {
    io.err(`omniforge skill read-properties: ${printable((e as Error).message)}\n`);
    return 1;
  }
}
