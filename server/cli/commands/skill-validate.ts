// `omniforge skill validate <path>...`: checks skill folders (or SKILL.md files) against the spec or omniforge
// rules. Exit 0 when every skill is valid, 1 when any is invalid, 2 on a usage error. `--json` prints one JSON
// object per skill per line, for CI. A folder without a SKILL.md of its own is a collection: every skill below it is
// validated (the common case, `validate ./skills`); `--recursive` also walks below folders that are skills themselves.
import fs from "node:fs";
import path from "node:path";
import { parseCommand } from "../args";
import { chunkedWriter, type CliIO } from "../io";
import { printable } from "../printable";
import { count } from "../../domain/plural";
// The modules, not the skill runtime's index (its frontmatter editor would load the YAML package at every start).
import { relativeInside } from "../../runtime/registry/layers";
import { checkSkillDir } from "../../runtime/skill/check";
import { DEFAULT_MAX_DEPTH, findSkillDirs, insideSkillFolder } from "../../runtime/skill/discover";
import type { RuleSet, SkillCheck } from "../../runtime/skill/types";

export const summary = "Validate skill folders against the agentskills.io spec (or the omniforge rules)";

const USAGE = `usage: omniforge skill validate <path>... [--rules spec|omniforge] [--json] [--recursive]
  <path>       a skill folder or its SKILL.md, or a folder of skills (every skill below it is validated)
  --rules      spec (default): agentskills.io exactly; omniforge: the spec plus OmniForge's extension fields
  --json       one JSON object per skill per line: {"path","name","valid","diagnostics":[...]}
  --recursive  also validate the skills nested below a skill folder
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
  const cwd = io.cwd;
  // The usual case, a path written below the current folder (both absolute and normal): the rest of it, without
  // path.relative resolving both sides for every report (1.5% of the instructions of validating 600 skills).
  const below = p.length > cwd.length + 1 && p.startsWith(cwd) && p[cwd.length] === path.sep && !cwd.endsWith(path.sep);
  const rel = below ? p.slice(cwd.length + 1) : relativeInside(cwd, p);
  return rel || p;
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
  // Linked folders the walk does not follow (as skill list, which shows them refused): said, so a count that
  // differs from the listing's is explained.
  const linkedFolders: string[] = [];
  // Folders left unlooked-at below the depth limit, per path given: said, so "nothing found" is not taken as "nothing there".
  const tooDeep = new Map<string, string[]>();
  for (const arg of positionals) {
    const target = skillDirOf(arg, io);
    if ("error" in target) {
      io.err(`omniforge skill validate: ${target.error}\n`);
      return 2;
    }
    const givenFile = path.basename(path.resolve(io.cwd, arg)).toLowerCase().endsWith(".md");
    const collection = !givenFile && !values.recursive && !insideSkillFolder(target.dir, target.dir);
    if ((values.recursive && !givenFile) || collection) {
      const deep: string[] = [];
      const found = findSkillDirs(target.dir, {
        listings,
        onLink: (link, kind) => kind === "folder" && linkedFolders.push(link),
        onDepthLimit: (dir) => deep.push(dir),
      });
      if (deep.length) tooDeep.set(target.dir, deep);
      // A folder named alone that holds no skill at all is reported as a skill folder missing its SKILL.md.
      if (found.length === 0 && collection) dirs.push(target.dir);
      else if (found.length === 0) empty.push(target.dir);
      dirs.push(...found);
    } else dirs.push(target.dir);
  }
  // Written in pieces of about 64 KiB, not a write per line.
  const out = chunkedWriter(io);
  let checked = 0;
  let valid = 0;
  // Each report is written as soon as its skill is checked and the check dropped: a check's properties keep the
  // whole SKILL.md text alive, and holding 600 of them made every garbage collection copy them.
  for (const dir of new Set(dirs)) {
    // No digest: nothing here prints it, and hashing every file was a tenth of a run over hundreds of skills.
    const check = checkSkillDir(dir, { rules: rules as RuleSet, listings, digest: false });
    checked++;
    if (check.valid) valid++;
    out(report(check, values.json === true, io));
  }
  out(null);
  for (const dir of empty) {
    const limit = tooDeep.has(dir) ? ` within ${DEFAULT_MAX_DEPTH} folder levels` : "";
    io.err(`omniforge skill validate: no SKILL.md found in or below ${display(dir, io)}${limit}\n`);
  }
  for (const [dir, deep] of tooDeep) {
    const more = deep.length > 1 ? ` and ${count(deep.length - 1, "other folder")}` : "";
    io.err(
      `omniforge skill validate: not looked into: ${printable(display(deep[0]!, io))}${more}, more than ${DEFAULT_MAX_DEPTH} folder levels below ` +
        `${printable(display(dir, io))}; validate a deeper folder by its own path\n`,
    );
  }
  for (const link of linkedFolders) {
    if (!fs.statSync(link, { throwIfNoEntry: false })?.isDirectory()) continue; // a linked file, or a broken link
    io.err(`omniforge skill validate: not followed: ${printable(display(link, io))} is a symbolic link to a folder; validate the folder it points to by its own path\n`);
  }
  if (!values.json) {
    io.out(`\n${count(checked, "skill")} checked (rules: ${rules}): ${valid} valid, ${checked - valid} invalid\n`);
  }
  return valid < checked || empty.length > 0 ? 1 : 0;
}

/** One skill's report: a JSON line, or its verdict and one line per diagnostic. */
function report(check: SkillCheck, json: boolean, io: CliIO): string {
  if (json) {
    return (
      JSON.stringify({
        path: check.dir,
        name: check.properties?.name ?? null,
        valid: check.valid,
        diagnostics: check.diagnostics.map((d) => ({ severity: d.severity, code: d.code, message: d.message, line: d.line, column: d.column })),
      }) + "\n"
    );
  }
  // Paths, names and messages quoting the file: control characters in them are shown, not obeyed by the terminal.
  const where = printable(display(check.file ?? check.dir, io));
  let text = `${where}: ${check.valid ? "valid" : "invalid"}${check.properties ? ` (${printable(check.properties.name)})` : ""}\n`;
  for (const d of check.diagnostics) text += `  ${where}:${d.line}:${d.column} ${d.severity} ${d.code} ${printable(d.message)}\n`;
  return text;
}
