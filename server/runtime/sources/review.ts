// Reviewed updates of a git source: the proposed commit is fetched and laid out beside the pinned one (nothing that
// agents see changes), and each skill folder whose files differ between the two is one change to review, with its
// diff. The pin moves later, with updateSource(..., { to }), once every change is approved.
import fs from "node:fs";
import path from "node:path";
import { createTwoFilesPatch } from "diff";
import { checkOut } from "./checkout";
import { layoutOf } from "./layout";
import { withSourcesLock } from "./lock";
import { auditSource, findSource, placeOf, updateTarget, type SourceContext } from "./sources";
import { checkoutDir, sourcesDir, type SourceRecord, type SourceRoot } from "./state";

export interface SkillChange {
  /** The skill folder, relative to its root ("pdf", or "collection/pdf"). */
  skill: string;
  /** The plugin it appears under (a plugin-layer source, or a marketplace's plugin); null in the enterprise layer. */
  plugin: string | null;
  kind: "added" | "changed" | "removed";
}

export interface Proposal {
  record: SourceRecord;
  from: string;
  to: string;
  rewound: boolean;
  changes: SkillChange[];
}

/** A file bigger than this, or with a NUL byte, is named in the diff without its lines. */
const DIFF_FILE_MAX_BYTES = 256 * 1024;
/** The whole diff of one skill is cut here (the checkout's own bounds keep the work linear before that). */
const DIFF_MAX_CHARS = 400_000;

const keyOf = (plugin: string | null, skill: string) => `${plugin ?? ""}\u0000${skill}`;

/** Skill folders (holding a SKILL.md) under each root of a laid-out commit, by plugin and folder. */
function skillFolders(home: string, rec: SourceRecord, roots: SourceRoot[]): Map<string, { plugin: string | null; skill: string; dir: string }> {
  const out = new Map<string, { plugin: string | null; skill: string; dir: string }>();
  for (const r of roots) {
    const top = path.join(sourcesDir(home), rec.name, r.dir);
    const plugin = r.plugin ?? (rec.layer === "plugin" ? rec.name : null);
    const walk = (dir: string, depth: number) => {
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      if (dir !== top && entries.some((e) => e.isFile() && e.name === "SKILL.md")) {
        const skill = path.relative(top, dir).split(path.sep).join("/");
        out.set(keyOf(plugin, skill), { plugin, skill, dir });
        return;
      }
      // A skill folder is a few levels down at most ("collection/pdf"); links are never followed.
      if (depth < 3) for (const e of entries) if (e.isDirectory() && !e.name.startsWith(".")) walk(path.join(dir, e.name), depth + 1);
    };
    walk(top, 0);
  }
  return out;
}

/** Relative path -> content of every regular file of a skill folder (links listed by their target). */
function filesOf(dir: string | undefined): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  if (!dir) return out;
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const rel = path.relative(dir, p).split(path.sep).join("/");
      if (e.isSymbolicLink()) out.set(rel, Buffer.from(`link to ${fs.readlinkSync(p)}\n`));
      else if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.set(rel, fs.readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

const sameFiles = (a: Map<string, Buffer>, b: Map<string, Buffer>) => a.size === b.size && [...a].every(([k, v]) => b.get(k)?.equals(v));

function rootsAt(home: string, rec: SourceRecord, commit: string): SourceRoot[] {
  return commit === rec.commit ? rec.roots : layoutOf(home, { ...rec, commit }, checkoutDir(home, rec.name, commit));
}

function changesBetween(home: string, rec: SourceRecord, to: string): SkillChange[] {
  const before = skillFolders(home, rec, rec.roots);
  const after = skillFolders(home, rec, rootsAt(home, rec, to));
  const out: SkillChange[] = [];
  for (const [k, a] of after) {
    const b = before.get(k);
    if (!b) out.push({ skill: a.skill, plugin: a.plugin, kind: "added" });
    else if (!sameFiles(filesOf(b.dir), filesOf(a.dir))) out.push({ skill: a.skill, plugin: a.plugin, kind: "changed" });
  }
  for (const [k, b] of before) if (!after.has(k)) out.push({ skill: b.skill, plugin: b.plugin, kind: "removed" });
  return out.sort((x, y) => keyOf(x.plugin, x.skill).localeCompare(keyOf(y.plugin, y.skill)));
}

/**
 * Fetches and lays out the commit an update would pin, without moving the pin, and names each skill it changes.
 * Audited as source_update_proposed with both commits. No changes when the source is at that commit already.
 */
export function proposeUpdate(ctx: SourceContext, name: string, opts: { to?: string; force?: boolean } = {}): Promise<Proposal> {
  return withSourcesLock(ctx.home, async () => {
    const { rec } = findSource(ctx, name);
    const { to, rewound } = await updateTarget(ctx, rec, opts);
    if (to === rec.commit) return { record: rec, from: rec.commit, to, rewound, changes: [] };
    await checkOut(placeOf(ctx, name), to, rec.path);
    const changes = changesBetween(ctx.home, rec, to);
    auditSource(ctx, "source_update_proposed", rec, rec.commit, to, { rewound, skills: changes.map((c) => (c.plugin ? `${c.skill}@${c.plugin}` : c.skill)) });
    return { record: rec, from: rec.commit, to, rewound, changes };
  });
}

/**
 * The unified diff of one skill folder between two laid-out commits of a source ("" when neither has it). Both
 * checkouts must still be there: the pinned and the proposed commit are (pruning keeps the pinned and previous).
 */
export function skillDiff(home: string, rec: SourceRecord, from: string, to: string, change: { skill: string; plugin: string | null }): string {
  const at = (commit: string) => {
    if (!fs.existsSync(checkoutDir(home, rec.name, commit))) return undefined;
    return skillFolders(home, rec, rootsAt(home, rec, commit)).get(keyOf(change.plugin, change.skill))?.dir;
  };
  const a = filesOf(at(from));
  const b = filesOf(at(to));
  let out = "";
  for (const rel of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    const x = a.get(rel);
    const y = b.get(rel);
    if (x && y && x.equals(y)) continue;
    const big = (buf?: Buffer) => !!buf && (buf.length > DIFF_FILE_MAX_BYTES || buf.includes(0));
    if (big(x) || big(y)) out += `--- a/${rel}\n+++ b/${rel}\n(binary or large file ${!x ? "added" : !y ? "removed" : "changed"})\n`;
    else out += createTwoFilesPatch(x ? `a/${rel}` : "/dev/null", y ? `b/${rel}` : "/dev/null", x?.toString("utf8") ?? "", y?.toString("utf8") ?? "", from.slice(0, 12), to.slice(0, 12));
    if (out.length > DIFF_MAX_CHARS) return out.slice(0, DIFF_MAX_CHARS) + "\n(diff cut here)\n";
  }
  return out;
}
