// What was published last, and what the catalog serves differently since. `omniforge publish marketplace` records
// each publication in the data home (<home>/sources/published.json: where, when, the commit, each plugin's version and
// each skill's folder digest); the console's Sources page reads it back and compares it with what the same selection
// gives now, so an admin sees "published 2 days ago, 3 skills changed since" without opening the marketplace folder.
import fs from "node:fs";
import path from "node:path";
import { readSkillFolder, SkillCopyError } from "../registry/skill-files";
import { resolve, type DefinitionSource } from "../registry/resolve";
import type { ResolveContext } from "../registry/types";
import { folderDigest } from "../sync/digest";
import { sourceProvenance } from "./roots";
import { sourcesDir } from "./state";
import type { PublishedPlugin } from "./publish";

/** The context flags a publication was made with (the same ones resolve the selection again). */
export interface PublishContext {
  environment?: string;
  agent?: string;
  tenant?: string;
}

export interface PublishRecord {
  /** The marketplace folder. */
  out: string;
  marketplace: string;
  /** ISO time. */
  at: string;
  /** The commit made in `out` when it is a git work tree (short id), else null. */
  commit: string | null;
  context: PublishContext;
  plugins: { name: string; version: string; skills: Record<string, string> }[];
}

export interface PublishDrift {
  /** Skills whose content differs from what was published, by plugin. */
  changed: { plugin: string; skill: string }[];
  added: { plugin: string; skill: string }[];
  removed: { plugin: string; skill: string }[];
}

const recordFile = (home: string) => path.join(sourcesDir(home), "published.json");

/**
 * The skills a marketplace publishes for a context: each name's active definition, one plugin per plugin, git
 * source or layer; personal skills are a person's own and never published.
 */
export function selectPublished(index: DefinitionSource & { names(): Iterable<string> }, ctx: ResolveContext, home: string): PublishedPlugin[] {
  const provenance = sourceProvenance(home);
  const plugins = new Map<string, PublishedPlugin>();
  for (const name of index.names()) {
    const e = resolve(index, name, ctx).active;
    if (!e || e.layer === "personal") continue;
    const from = provenance.get(e.root);
    const key = e.plugin || from?.name || e.layer;
    const description = e.plugin ? `Plugin ${e.plugin}` : from ? `Skills from ${from.url}` : `Skills of the ${e.layer} layer`;
    const p = plugins.get(key) ?? plugins.set(key, { name: key, description, skills: [] }).get(key)!;
    p.skills.push({ name: path.basename(e.dir), dir: e.dir });
  }
  return [...plugins.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** The folder digest of each skill of each plugin (a skill that cannot be read gets none, and counts as changed). */
export function skillDigests(plugins: PublishedPlugin[]): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const p of plugins) {
    const digests: Record<string, string> = {};
    for (const s of p.skills) {
      try {
        digests[s.name] = folderDigest(readSkillFolder(s.dir));
      } catch (e) {
        if (!(e instanceof SkillCopyError)) throw e;
        digests[s.name] = "";
      }
    }
    out[p.name] = digests;
  }
  return out;
}

export function writePublishRecord(home: string, rec: PublishRecord): void {
  const file = recordFile(home);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, JSON.stringify(rec, null, 2) + "\n");
  fs.renameSync(tmp, file);
}

/** The last publication, or null when nothing was published from this data home (or its record is unreadable). */
export function readPublishRecord(home: string): PublishRecord | null {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(recordFile(home), "utf8"));
  } catch {
    return null;
  }
  const r = raw as Partial<PublishRecord>;
  if (typeof r?.out !== "string" || typeof r.at !== "string" || !Array.isArray(r.plugins)) return null;
  return { out: r.out, marketplace: String(r.marketplace ?? ""), at: r.at, commit: typeof r.commit === "string" ? r.commit : null, context: r.context ?? {}, plugins: r.plugins };
}

/** What the selection gives now against what was published: changed, added and removed skills, by plugin. */
export function publishDrift(rec: PublishRecord, now: Record<string, Record<string, string>>): PublishDrift {
  const drift: PublishDrift = { changed: [], added: [], removed: [] };
  const before = new Map(rec.plugins.map((p) => [p.name, p.skills]));
  for (const [plugin, skills] of Object.entries(now)) {
    const was = before.get(plugin) ?? {};
    for (const [skill, digest] of Object.entries(skills)) {
      if (!(skill in was)) drift.added.push({ plugin, skill });
      else if (was[skill] !== digest || !digest) drift.changed.push({ plugin, skill });
    }
  }
  for (const [plugin, skills] of before) {
    const is = now[plugin] ?? {};
    for (const skill of Object.keys(skills)) if (!(skill in is)) drift.removed.push({ plugin, skill });
  }
  const order = (a: { plugin: string; skill: string }, b: { plugin: string; skill: string }) => (a.plugin + "/" + a.skill < b.plugin + "/" + b.skill ? -1 : 1);
  drift.changed.sort(order);
  drift.added.sort(order);
  drift.removed.sort(order);
  return drift;
}
