// `omniforge skill install`: a skill from a folder, .zip or .tar.gz becomes a plugin in the plugin layer
// (<home>/plugins/<plugin>/skills/<name> + plugin.json). Archives are checked completely before anything
// is written; the plugin folder is assembled in a staging folder and renamed into place.
import fs from "node:fs";
import path from "node:path";
import { checkSkillDir } from "../skill";
import type { Diagnostic } from "../skill/types";
import { ArchiveError, DEFAULT_ARCHIVE_LIMITS, detectArchiveFormat, extractArchive, type ArchiveFormat, type ArchiveLimits } from "./archive";
import { isSafeSegment, type LayerConfig, type PluginManifest, pluginsDir } from "./layers";
import { commitStaging, makeStaging, readSkillFolder, SkillCopyError, type SkillFile, writeFilesInto } from "./skill-files";

export class InstallError extends Error {
  constructor(
    message: string,
    readonly code: string = "install.refused",
  ) {
    super(message);
    this.name = "InstallError";
  }
}

export interface InstallOptions {
  /** Plugin name; defaults to the skill's name. */
  plugin?: string;
  /** Replace an installed plugin of the same name. */
  force?: boolean;
  limits?: ArchiveLimits;
  now?: () => Date;
}

export interface InstallResult {
  name: string;
  plugin: string;
  /** The installed skill folder. */
  dir: string;
  pluginDir: string;
  source: string;
  format: ArchiveFormat | "folder";
  files: number;
  totalBytes: number;
  replaced: boolean;
  /** Warnings and infos of the installed SKILL.md (errors refuse the install). */
  diagnostics: Diagnostic[];
  skipped: string[];
}

/** Reads the source into memory, checked against the limits, without writing anything. */
export function readInstallSource(
  source: string,
  limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS,
): { files: SkillFile[]; format: ArchiveFormat | "folder"; skipped: string[] } {
  let st: fs.Stats;
  try {
    st = fs.statSync(source);
  } catch {
    throw new InstallError(`${source}: no such file or folder`, "install.source");
  }
  try {
    if (st.isDirectory()) {
      if (!fs.existsSync(path.join(source, "SKILL.md"))) {
        throw new InstallError(`${source} has no SKILL.md at its top; point at the skill folder itself`, "install.no-skill");
      }
      return { files: readSkillFolder(source, limits), format: "folder", skipped: [] };
    }
    if (st.size > limits.maxArchiveBytes) {
      throw new ArchiveError("archive.too-large", `the archive is ${st.size} bytes; the limit is ${limits.maxArchiveBytes} bytes`);
    }
    const bytes = new Uint8Array(fs.readFileSync(source));
    const format = detectArchiveFormat(bytes, source);
    if (!format) throw new InstallError(`${source} is not a folder, a .zip, a .tar.gz or a .tar`, "install.format");
    const x = extractArchive(bytes, format, limits);
    const files = x.files.map((f) => ({ path: f.path, data: x.contents.get(f.path)!, executable: f.executable }));
    return { files, format, skipped: x.skipped };
  } catch (e) {
    if (e instanceof ArchiveError) throw new InstallError(`refused ${source}: ${e.message}`, e.code);
    if (e instanceof SkillCopyError) throw new InstallError(`refused ${source}: ${e.message}`, "install.copy");
    throw e;
  }
}

export function installSkill(source: string, config: LayerConfig, opts: InstallOptions = {}): InstallResult {
  if (opts.plugin !== undefined && !isSafeSegment(opts.plugin)) {
    throw new InstallError(`invalid plugin name "${opts.plugin}": use letters, digits, dot, dash or underscore`, "install.plugin-name");
  }
  const read = readInstallSource(source, opts.limits);
  const staging = makeStaging(path.join(pluginsDir(config), "install"));
  try {
    const incoming = path.join(staging, "incoming");
    fs.mkdirSync(incoming);
    writeFilesInto(incoming, read.files);
    const check = checkSkillDir(incoming, { rules: "omniforge" });
    if (!check.loadable || !check.properties) {
      const err = check.diagnostics.find((d) => d.severity === "error");
      throw new InstallError(`refused ${source}: SKILL.md does not load: ${err?.message ?? "unreadable"}`, "install.invalid");
    }
    const name = check.properties.name;
    if (!isSafeSegment(name)) throw new InstallError(`refused ${source}: the skill name "${name}" cannot be a folder name`, "install.invalid");
    const plugin = opts.plugin ?? name;
    const pluginDir = path.join(pluginsDir(config), plugin);
    if (fs.existsSync(pluginDir) && !opts.force) {
      throw new InstallError(`the plugin "${plugin}" is already installed at ${pluginDir}; use --force to replace it`, "install.exists");
    }
    fs.mkdirSync(path.join(staging, "skills"));
    fs.renameSync(incoming, path.join(staging, "skills", name));
    const manifest: PluginManifest = {
      name: plugin,
      installedAt: (opts.now?.() ?? new Date()).toISOString(),
      source: path.resolve(source),
    };
    fs.writeFileSync(path.join(staging, "plugin.json"), JSON.stringify(manifest, null, 2) + "\n");
    const { replaced } = commitStaging(staging, pluginDir, opts.force === true);
    return {
      name,
      plugin,
      dir: path.join(pluginDir, "skills", name),
      pluginDir,
      source: manifest.source,
      format: read.format,
      files: read.files.length,
      totalBytes: read.files.reduce((n, f) => n + f.data.length, 0),
      replaced,
      diagnostics: check.diagnostics,
      skipped: read.skipped,
    };
  } catch (e) {
    fs.rmSync(staging, { recursive: true, force: true });
    if (e instanceof SkillCopyError) throw new InstallError(`refused ${source}: ${e.message}`, "install.copy");
    throw e;
  }
}
