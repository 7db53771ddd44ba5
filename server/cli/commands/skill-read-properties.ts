// `omniforge skill read-properties <path>`: the frontmatter as JSON, in skills-ref's exact shape and format,
// so scripts written against skills-ref keep working. Exit 1 when the skill cannot be loaded.
import type { CliIO } from "../io";
import { checkSkillDir, formatPropertiesJson, readProperties } from "../../runtime/skill/index";
import { parseCommandArgs, skillDirOf } from "./skill-validate";

export const summary = "Print a skill's frontmatter properties as JSON (skills-ref format)";

const USAGE = `usage: omniforge skill read-properties <path>
  <path>  a skill folder or its SKILL.md
`;

export async function run(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommandArgs(args, { help: { type: "boolean", short: "h" } } as const);
  if (typeof parsed === "string") {
    io.err(`omniforge skill read-properties: ${parsed}\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    io.out(USAGE);
    return 0;
  }
  if (parsed.positionals.length !== 1) {
    io.err(`omniforge skill read-properties: give exactly one skill folder\n${USAGE}`);
    return 2;
  }
  const target = skillDirOf(parsed.positionals[0]!, io);
  if ("error" in target) {
    io.err(`omniforge skill read-properties: ${target.error}\n`);
    return 2;
  }
  try {
    io.out(formatPropertiesJson(readProperties(checkSkillDir(target.dir))) + "\n");
    return 0;
  } catch (e) {
    io.err(`Error: ${(e as Error).message}\n`);
    return 1;
  }
}
