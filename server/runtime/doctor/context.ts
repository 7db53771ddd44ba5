// What the checks read of one skill, read once: the checked SKILL.md and the list of its files.
import fs from "node:fs";
import path from "node:path";
import { checkSkillDir, type SkillCheck } from "../skill/index";
import { noBudget, type Budget } from "./budget";
import { listFiles } from "../walk-files";

/** Files listed per skill; a skill with more is a data dump and the rest is not looked at. */
export const MAX_FILES = 500;
/** Largest file read for scanning or references. */
export const MAX_READ_BYTES = 512 * 1024;

export interface SkillContext {
  dir: string;
  check: SkillCheck;
  name: string;
  description: string;
  body: string;
  bodyStartLine: number;
  /** Every file under the skill (relative, "/"-separated, sorted), without SKILL.md, dot files or node_modules. */
  files: string[];
  /** 1-based line of the description in SKILL.md (1 when not found). */
  descriptionLine: number;
  /** SKILL.md's lines before the body (the frontmatter), to point findings at a field. */
  frontmatterLines: string[];
  /** The time left for this skill's checks (set when they start). */
  budget: Budget;
}

/** Dot files, dependency folders and byte-code caches are not part of what a skill says. */
const notContent = (name: string) => name.startsWith(".") || name === "node_modules" || name === "__pycache__";

function skillFiles(dir: string): string[] {
  return listFiles(dir, {
    // A folder with its own SKILL.md is a nested skill, doctored on its own.
    enter: (rel, e) => !notContent(e.name) && !fs.existsSync(path.join(dir, rel, "SKILL.md")),
    keep: (rel, e) => !notContent(e.name) && rel !== "SKILL.md" && rel !== "skill.md",
    max: MAX_FILES,
  });
}

export function readText(dir: string, rel: string): string | null {
  try {
    const file = path.join(dir, rel);
    const st = fs.lstatSync(file);
    if (!st.isFile() || st.size > MAX_READ_BYTES) return null;
    return fs.readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

export function loadSkill(dir: string): SkillContext {
  const abs = path.resolve(dir);
  const check = checkSkillDir(abs, { rules: "spec" });
  const raw = check.raw ?? {};
  const name = check.properties?.name ?? (typeof raw.name === "string" ? raw.name : path.basename(abs));
  const description = check.properties?.description ?? (typeof raw.description === "string" ? raw.description : "");
  const frontmatterLines = check.file ? (readText(abs, path.basename(check.file)) ?? "").split("\n", Math.max(check.bodyStartLine - 1, 1)) : [];
  const d = frontmatterLines.findIndex((l) => /^description\s*:/.test(l));
  return { dir: abs, check, name, description, body: check.body ?? "", bodyStartLine: check.bodyStartLine, files: skillFiles(abs), descriptionLine: d >= 0 ? d + 1 : 1, frontmatterLines, budget: noBudget() };
}
