// Publishing what the catalog serves as a Claude Code marketplace: .claude-plugin/marketplace.json (name, owner, one
// plugin per layer or source), each plugin's folder (.claude-plugin/plugin.json and skills/), and the
// managed-settings.json snippet that makes every Claude Code know the marketplace and enable its plugins. A plugin's
// `version` moves exactly when its content digest does (Claude Code updates a plugin only when its version changes);
// what was published last is remembered in .omniforge-publish.json beside the marketplace.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { readSkillFolder } from "../registry/skill-files";
import { isSafeSegment } from "../registry/layers";
import { SourceError } from "./checkout";
import { count } from "../../domain/plural";

export interface PublishedSkill {
  name: string;
  /** The skill folder to copy. */
  dir: string;
}

export interface PublishedPlugin {
  name: string;
  description: string;
  skills: PublishedSkill[];
}

export interface PublishRequest {
  out: string;
  marketplace: string;
  owner: string;
  plugins: PublishedPlugin[];
  /** Where Claude Code will fetch the marketplace from (a git URL); without it, the folder itself. */
  url?: string;
}

export interface PublishOutcome {
  plugins: { name: string; version: string; digest: string; skills: number; changed: boolean }[];
  removed: string[];
}

const STATE = ".omniforge-publish.json";
type State = Record<string, { version: string; digest: string }>;

function readState(out: string): State {
  try {
    return JSON.parse(fs.readFileSync(path.join(out, STATE), "utf8")) as State;
  } catch {
    return {};
  }
}

/** 1.0.0 for a plugin's first publication, then the minor number moves with each change of content. */
function nextVersion(previous: string | undefined): string {
  const m = previous ? /^(\d+)\.(\d+)\.(\d+)$/.exec(previous) : null;
  return m ? `${m[1]}.${Number(m[2]) + 1}.0` : "1.0.0";
}

export function publishMarketplace(req: PublishRequest): PublishOutcome {
  if (!isSafeSegment(req.marketplace)) throw new SourceError(`"${req.marketplace}" is not a usable marketplace name`, "publish.bad-name");
  const before = readState(req.out);
  const state: State = {};
  const outcome: PublishOutcome = { plugins: [], removed: [] };
  const entries: Record<string, unknown>[] = [];
  fs.mkdirSync(path.join(req.out, ".claude-plugin"), { recursive: true });
  for (const plugin of req.plugins) {
    if (!isSafeSegment(plugin.name)) throw new SourceError(`"${plugin.name}" is not a usable plugin name`, "publish.bad-name");
    const files = plugin.skills.map((s) => ({ skill: s.name, files: readSkillFolder(s.dir) }));
    const hash = createHash("sha256");
    for (const { skill, files: fs_ } of [...files].sort((a, b) => (a.skill < b.skill ? -1 : 1))) {
      for (const f of fs_) hash.update(`${skill}/${f.path}\0${f.executable ? 1 : 0}\0${createHash("sha256").update(f.data).digest("hex")}\n`);
    }
    const digest = hash.digest("hex");
    const prev = before[plugin.name];
    const changed = prev?.digest !== digest;
    const version = changed ? nextVersion(prev?.version) : prev!.version;
    state[plugin.name] = { version, digest };
    const dir = path.join(req.out, "plugins", plugin.name);
    fs.rmSync(dir, { recursive: true, force: true });
    for (const { skill, files: fs_ } of files) {
      for (const f of fs_) {
        const p = path.join(dir, "skills", skill, ...f.path.split("/"));
        fs.mkdirSync(path.dirname(p), { recursive: true });
        fs.writeFileSync(p, f.data, { mode: f.executable ? 0o755 : 0o644 });
      }
    }
    writeJson(path.join(dir, ".claude-plugin", "plugin.json"), { name: plugin.name, version, description: plugin.description });
    entries.push({ name: plugin.name, source: `./plugins/${plugin.name}`, description: plugin.description, version });
    outcome.plugins.push({ name: plugin.name, version, digest, skills: files.length, changed });
  }
  // Plugins published before and not now: their folders go (only folders this command wrote).
  for (const name of Object.keys(before)) {
    if (state[name] || !isSafeSegment(name)) continue;
    fs.rmSync(path.join(req.out, "plugins", name), { recursive: true, force: true });
    outcome.removed.push(name);
  }
  writeJson(path.join(req.out, ".claude-plugin", "marketplace.json"), {
    name: req.marketplace,
    owner: { name: req.owner },
    metadata: { description: `Skills served by OmniForge (${count(req.plugins.length, "plugin")})` },
    plugins: entries,
  });
  const source = req.url ? { source: "git", url: req.url } : { source: "directory", path: path.resolve(req.out) };
  writeJson(path.join(req.out, "managed-settings.json"), {
    extraKnownMarketplaces: { [req.marketplace]: { source } },
    enabledPlugins: Object.fromEntries(req.plugins.map((p) => [`${p.name}@${req.marketplace}`, true])),
  });
  writeJson(path.join(req.out, STATE), state);
  return outcome;
}

function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, JSON.stringify(value, null, 2) + "\n");
  fs.renameSync(tmp, file);
}
