// `omniforge skill validate <path>...`: checks skill folders (or SKILL.md files) against the spec or omniforge
// rules. Exit 0 when every skill is valid, 1 when any is invalid, 2 on a usage error. `--json` prints one JSON
// object per skill per line, for CI; `--recursive` validates every skill folder below each path.
import fs from "node:fs";
import path from "node:path";
import { parseCommand } from "../args";
import { chunkedWriter, type CliIO } from "../io";
import { count } from "../../domain/plural";
// The modules, not the skill runtime's index (its frontmatter editor would load the YAML package at every start).
import { checkSkillDir } from "../../runtime/skill/check";
import { findSkillDirs } from "../../runtime/skill/discover";
import type { RuleSet, SkillCheck } from "../../runtime/skill/types";

export const summary = "Validate skill folders against the agentskills.io spec (or the omniforge rules)";

const USAGE = `usage: omniforge skill validate <path>... [--rules spec|omniforge] [--json] [--recursive]
  <path>       a skill folder or its SKILL.md
  --rules      spec (default): agentskills.io exactly; omniforge: the spec plus OmniForge's extension fields
  --json       one JSON object per skill per line: {"path","name","valid","diagnostics":[...]}
  --recursive  validate every folder containing a SKILL.md below each path
`;

/** A command-line path as a skill folder, or a message for a usage error. */
export function skillDirOf(arg: string, io: CliIO): { dir: string } | { error: string } {
  const abs = path.resolve(io.cwd, arg);
  let st: fs.Stats;
  try {
    st = fs.statSync(abs);
  } catch {
    return { error: `path not found: ${arg}` };
  }
  if (st.isDirectory()) return { dir: abs };
  if (path.basename(abs).toLowerCase() === "skill.md") return { dir: path.dirname(abs) };
  return { error: `not a skill folder or SKILL.md file: ${arg}` };
}

/** Paths shown relative to the current folder when they are inside it. */
export function display(p: string, io: CliIO): string {
  const rel = path.relative(io.cwd, p);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : p;
}

export async function run(args: string[], io: CliIO): Promise<number> {
  const cmd = parseCommand("skill validate", USAGE, args, {
    rules: { type: "string" },
    json: { type: "boolean" },
    recursive: { type: "boolean", short: "r" },
    help: { type: "boolean", short: "h" },
  }, io);
  if (typeof cmd === "number") return cmd;
  const { values, positionals, fail } = cmd;
  const rules = values.rules ?? "spec";
  if (rules !== "spec" && rules !== "omniforge") {
    return fail(`--rules must be spec or omniforge, not "${rules}"`);
  }
  if (positionals.length === 0) {
    return fail(`give at least one skill folder or SKILL.md`);
  }
  const dirs: string[] = [];
  const empty: string[] = [];
  // The walk's folder listings answer the body's file lookups right after it (no stat per reference).
  const listings = new Map<string, fs.Dirent[]>();
  for (const arg of positionals) {
    const target = skillDirOf(arg, io);
    if ("error" in target) {
      io.err(`omniforge skill validate: ${target.error}\n`);
      return 2;
    }
    if (values.recursive && !path.basename(path.resolve(io.cwd, arg)).toLowerCase().endsWith(".md")) {
      const found = findSkillDirs(target.dir, { listings });
      if (found.length === 0) empty.push(target.dir);
      dirs.push(...found);
    } else dirs.push(target.dir);
  }
  // No digest: nothing here prints it, and hashing every file was a tenth of a run over hundreds of skills.
  const checks: SkillCheck[] = [...new Set(dirs)].map((dir) => checkSkillDir(dir, { rules: rules as RuleSet, listings, digest: false }));

  // Written in pieces of about 64 KiB, not a write per line.
  const out = chunkedWriter(io);
  for (const check of checks) {
    if (values.json) {
      out(
        JSON.stringify({
          path: check.dir,
          name: check.properties?.name ?? null,
          valid: check.valid,
          diagnostics: check.diagnostics.map((d) => ({ severity: d.severity, code: d.code, message: d.message, line: d.line, column: d.column })),
        }) + "\n",
      );
      continue;
    }
    const where = display(check.file ?? check.dir, io);
    out(`${where}: ${check.valid ? "valid" : "invalid"}${check.properties ? ` (${check.properties.name})` : ""}\n`);
    for (const d of check.diagnostics) out(`  ${where}:${d.line}:${d.column} ${d.severity} ${d.code} ${d.message}\n`);
  }
  out(null);
  for (const dir of empty) io.err(`omniforge skill validate: no SKILL.md found in or below ${display(dir, io)}\n`);
  if (!values.recursive && !values.json) {
    for (const check of checks) {
      if (check.file === null && findSkillDirs(check.dir, { maxDepth: 3 }).length > 0) {
        io.err(`omniforge skill validate: ${display(check.dir, io)} holds skill folders; add --recursive to validate them\n`);
      }
    }
  }
  const valid = checks.filter((c) => c.valid).length;
  if (!values.json) {
    io.out(`\n${count(checks.length, "skill")} checked (rules: ${rules}): ${valid} valid, ${checks.length - valid} invalid\n`);
  }
  return valid < checks.length || empty.length > 0 ? 1 : 0;
}
