// What an approval of a skill with scripts is bound to: SKILL.md *and* the files of its script folders
// (scripts/, bin/, tools/). Otherwise an approved skill whose scripts/deploy.sh is edited later would run the new
// code without a new approval.
// A cheap stamp (paths, sizes, mtimes) decides when the contents must be hashed again.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { SCRIPT_FOLDERS } from "../../domain/skill-protocol";

export interface ScriptsState {
  /** paths + sizes + mtimes; equal stamps mean the digest can be reused. */
  stamp: string;
  /** sha256 over every script's path and content ("" when the stamp is reused and no digest was asked). */
  digest: string;
}

/** Bounds on hostile folders: scripts folders are small; past these we hash what we saw and mark it. */
const MAX_FILES = 500;
const MAX_DEPTH = 6;

function listScripts(scriptsDir: string): { rel: string; abs: string; size: number; mtimeMs: number }[] {
  const out: { rel: string; abs: string; size: number; mtimeMs: number }[] = [];
  const walk = (abs: string, rel: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const d of entries) {
      if (out.length >= MAX_FILES) return;
      const childAbs = path.join(abs, d.name);
      const childRel = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) {
        if (depth < MAX_DEPTH) walk(childAbs, childRel, depth + 1);
        continue;
      }
      try {
        // stat follows links: a linked script's content is what would run.
        const st = fs.statSync(childAbs);
        if (st.isFile()) out.push({ rel: childRel, abs: childAbs, size: st.size, mtimeMs: st.mtimeMs });
      } catch {
        out.push({ rel: childRel, abs: childAbs, size: -1, mtimeMs: 0 }); // broken link: still part of the stamp
      }
    }
  };
  walk(scriptsDir, "", 0);
  return out;
}

/**
 * null when the skill has no script folder. `previous` lets unchanged folders skip the hashing; `folders` narrows
 * the script folders to look at (those a listing of the skill folder already showed).
 */
export function scriptsState(skillDir: string, previous?: ScriptsState, folders: readonly string[] = SCRIPT_FOLDERS): ScriptsState | null {
  const files: ReturnType<typeof listScripts> = [];
  let any = false;
  for (const folder of folders) {
    const dir = path.join(skillDir, folder);
    // No exception for the common "no scripts/" case: building the error object costs more than the stat.
    if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) continue;
    any = true;
    // scripts/ keeps the paths it always had, so approvals recorded before bin/ and tools/ counted still hold.
    const prefix = folder === "scripts" ? "" : `${folder}/`;
    for (const f of listScripts(dir)) files.push({ ...f, rel: prefix + f.rel });
  }
  if (!any) return null;
  const stamp = files.map((f) => `${f.rel}\0${f.size}\0${f.mtimeMs}`).join("\n");
  if (previous && previous.stamp === stamp) return previous;
  const h = createHash("sha256");
  for (const f of files) {
    let content: Buffer;
    try {
      content = fs.readFileSync(f.abs);
    } catch {
      content = Buffer.alloc(0);
    }
    h.update(f.rel).update("\0").update(createHash("sha256").update(content).digest("hex")).update("\n");
  }
  return { stamp, digest: h.digest("hex") };
}

/** The digest an approval records: SKILL.md's digest alone, or combined with the scripts' digest. */
export function approvalDigestOf(skillDigest: string, scripts: ScriptsState | null): string {
  if (!scripts) return skillDigest;
  return createHash("sha256").update(`${skillDigest}\n${scripts.digest}`).digest("hex");
}
