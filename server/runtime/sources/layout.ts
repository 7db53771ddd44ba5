// Where a checked-out commit's skill folders are. A plain repository: the source's sub-path. A Claude Code
// marketplace (.claude-plugin/marketplace.json at the sub-path) is read as Claude Code reads it: each plugin whose
// `source` is a folder of this repository gives the skills its entry lists in `skills` (a skill folder, or a folder
// of them), else its own `skills/` folder, under the plugin's name. Plugins fetched from elsewhere (a `source`
// object: github, url, npm) are not followed: a source serves its own repository's pinned commit only.
import fs from "node:fs";
import path from "node:path";
import { ConfinementError, realPathOf, realRoot } from "../registry/confine";
import { isInside, isSafeSegment } from "../registry/layers";
import { makeReadOnly, removeTree, SourceError } from "./checkout";
import { sourcesDir, type SourceRecord, type SourceRoot } from "./state";

/** The marketplace file is small; a bigger one is refused rather than parsed. */
const MARKETPLACE_MAX_BYTES = 1024 * 1024;

interface PluginEntry {
  name?: unknown;
  source?: unknown;
  skills?: unknown;
}

/** The roots of `rec`'s pinned commit laid out at `checkout`, relative to <home>/sources/<name>/. */
export function layoutOf(home: string, rec: SourceRecord, checkout: string): SourceRoot[] {
  const top = path.join(checkout, rec.path);
  const file = path.join(top, ".claude-plugin", "marketplace.json");
  if (!fs.lstatSync(file, { throwIfNoEntry: false })?.isFile()) return [{ dir: path.join(path.basename(checkout), rec.path) }];
  return marketplaceRoots(home, rec, checkout, top, readMarketplace(file));
}

function readMarketplace(file: string): { plugins: PluginEntry[]; pluginRoot: string } {
  if (fs.statSync(file).size > MARKETPLACE_MAX_BYTES) throw new SourceError(".claude-plugin/marketplace.json is over 1 MiB; it is not read", "marketplace.too-big");
  let raw: { plugins?: unknown; metadata?: { pluginRoot?: unknown } };
  try {
    raw = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new SourceError(`.claude-plugin/marketplace.json is not valid JSON: ${(e as Error).message}`, "marketplace.bad-json");
  }
  if (!raw || typeof raw !== "object" || !Array.isArray(raw.plugins)) throw new SourceError(".claude-plugin/marketplace.json has no plugins list", "marketplace.no-plugins");
  const pluginRoot = typeof raw.metadata?.pluginRoot === "string" ? raw.metadata.pluginRoot : "";
  return { plugins: raw.plugins as PluginEntry[], pluginRoot };
}

function marketplaceRoots(home: string, rec: SourceRecord, checkout: string, top: string, m: { plugins: PluginEntry[]; pluginRoot: string }): SourceRoot[] {
  const commit = path.basename(checkout);
  const view = path.join(sourcesDir(home), rec.name, `${commit}.plugins`);
  const fresh = !fs.existsSync(view);
  const tmp = `${view}.tmp-${process.pid}`;
  if (fresh) {
    removeTree(tmp);
    fs.mkdirSync(tmp, { recursive: true, mode: 0o700 });
  }
  const roots: SourceRoot[] = [];
  try {
    for (const entry of m.plugins) {
      if (typeof entry?.name !== "string" || !isSafeSegment(entry.name) || typeof entry.source !== "string") continue;
      // "./x" is relative to the marketplace root; a bare name to metadata.pluginRoot.
      const rel = entry.source.startsWith("./") || entry.source.startsWith("../") || entry.source === "." ? entry.source : path.posix.join(m.pluginRoot || ".", entry.source);
      const pluginDir = inside(checkout, path.join(top, rel), `plugin ${entry.name}'s source`);
      const listed = Array.isArray(entry.skills) ? entry.skills.filter((s): s is string => typeof s === "string") : typeof entry.skills === "string" ? [entry.skills] : null;
      if (!listed) {
        // pluginDir is a real path: relative to the real folder above the checkout.
        roots.push({ dir: path.relative(fs.realpathSync(path.dirname(checkout)), path.join(pluginDir, "skills")), plugin: entry.name });
        continue;
      }
      // Listed skill folders are copied side by side into a view of this plugin: a layer root is a folder of skills.
      if (fresh) {
        const dest = path.join(tmp, entry.name);
        fs.mkdirSync(dest, { recursive: true });
        for (const s of listed) copySkills(checkout, inside(checkout, path.join(pluginDir, s), `plugin ${entry.name}'s skill ${s}`), dest);
      }
      roots.push({ dir: path.join(`${commit}.plugins`, entry.name), plugin: entry.name });
    }
    if (fresh) {
      makeReadOnly(tmp);
      fs.renameSync(tmp, view);
    }
    return roots;
  } catch (e) {
    if (fresh) removeTree(tmp);
    throw e;
  }
}

/**
 * `abs` as a real path inside the checkout (the checkout itself included: a plugin's source may be "./"), or a
 * SourceError naming `what`. Judged by real path, as every layer's paths are.
 */
function inside(checkout: string, abs: string, what: string): string {
  const outside = () => new SourceError(`.claude-plugin/marketplace.json: ${what} is outside the repository`, "marketplace.outside");
  let real: string;
  try {
    real = realPathOf(abs);
  } catch (e) {
    if (e instanceof ConfinementError) throw outside();
    throw e;
  }
  if (!isInside(realRoot(checkout), real)) throw outside();
  return real;
}

/** A skill folder (with SKILL.md) is copied as itself; a folder of skill folders gives each of them. */
function copySkills(checkout: string, from: string, dest: string): void {
  if (!fs.statSync(from, { throwIfNoEntry: false })?.isDirectory()) return;
  const folders = fs.existsSync(path.join(from, "SKILL.md"))
    ? [from]
    : fs.readdirSync(from, { withFileTypes: true }).filter((d) => d.isDirectory() && fs.existsSync(path.join(from, d.name, "SKILL.md"))).map((d) => path.join(from, d.name));
  for (const f of folders) {
    const to = path.join(dest, path.basename(f));
    if (f === checkout || fs.existsSync(to)) continue;
    fs.cpSync(f, to, { recursive: true, verbatimSymlinks: true });
  }
}
