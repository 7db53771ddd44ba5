// `omniforge skill install`: a skill from a folder, .zip or .tar.gz becomes a plugin in the plugin layer
// (<home>/plugins/<plugin>/skills/<name> + plugin.json). Archives are checked completely before anything
// is written; the plugin folder is assembled in a staging folder and renamed into place.
import fs from "node:fs";
import path from "node:path";
import { checkSkillDir } from "../skill";
import type { Diagnostic } from "../skill/types";
import { FileReadError, readRegularFile } from "../read-file";
import { ArchiveError, DEFAULT_ARCHIVE_LIMITS, detectArchiveFormat, extractArchive, type ArchiveFormat, type ArchiveLimits } from "./archive";
import { ensurePrivateHome, isSafeSegment, type LayerConfig, type LayerName, type PluginManifest, pluginsDir, writableRoot } from "./layers";
import { commitStaging, makeStaging, readSkillFolder, RegistryError, SkillCopyError, type SkillFile, writeFilesInto } from "./skill-files";

export class InstallError extends RegistryError {
  constructor(message: string, code = "install.refused") {
    super(message, code);
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

/** What an install or an import wrote. */
interface Written {
  name: string;
  /** The written skill folder. */
  dir: string;
  format: ArchiveFormat | "folder";
  files: number;
  totalBytes: number;
  replaced: boolean;
  /** Warnings and infos of the written SKILL.md (errors refuse it). */
  diagnostics: Diagnostic[];
  skipped: string[];
}

export interface InstallResult extends Written {
  plugin: string;
  pluginDir: string;
  source: string;
}

/** A folder or archive path, or an uploaded archive's bytes (the console's import). */
export type SkillSource = string | { bytes: Uint8Array; fileName: string };

const sourceLabel = (source: SkillSource) => (typeof source === "string" ? source : source.fileName);

async function fromArchive(bytes: Uint8Array, label: string, limits: ArchiveLimits) {
  const format = detectArchiveFormat(bytes, label);
  if (!format) throw new InstallError(`${label} is not a folder, a .zip, a .tar.gz or a .tar`, "install.format");
  const x = await extractArchive(bytes, format, limits);
  const files = x.files.map((f) => ({ path: f.path, data: x.contents.get(f.path)!, executable: f.executable }));
  return { files, format: format as ArchiveFormat | "folder", skipped: x.skipped };
}

/** Reads the source into memory, checked against the limits, without writing anything. */
export async function readInstallSource(
  source: SkillSource,
  limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS,
): Promise<{ files: SkillFile[]; format: ArchiveFormat | "folder"; skipped: string[] }> {
  if (typeof source !== "string") {
    try {
      return await fromArchive(source.bytes, source.fileName, limits);
    } catch (e) {
      if (e instanceof ArchiveError) throw new InstallError(`refused ${source.fileName}: ${e.message}`, e.code);
      throw e;
    }
  }
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
    // Not readFileSync: a named pipe would wait for a writer forever, and a device (size 0 to stat) never ends.
    let bytes: Buffer;
    try {
      bytes = readRegularFile(source, limits.maxArchiveBytes);
    } catch (e) {
      if (!(e instanceof FileReadError)) throw e;
      const why = e.problem === "too-large" ? "archive.too-large" : "install.source";
      throw new InstallError(e.problem === "not-a-file" ? `refused ${e.message}: give a skill folder or a .zip, .tar or .tar.gz archive` : `refused ${e.message}`, why);
    }
    return await fromArchive(new Uint8Array(bytes), source, limits);
  } catch (e) {
    if (e instanceof ArchiveError) throw new InstallError(`refused ${source}: ${e.message}`, e.code);
    if (e instanceof SkillCopyError) throw new InstallError(`refused ${source}: ${e.message}`, "install.copy");
    throw e;
  }
}

/** Writes the files into a fresh staging folder under `parent` and checks the SKILL.md. Refuses what does not load. */
function stageSkill(files: SkillFile[], parent: string, label: string): { staging: string; name: string } {
  const staging = makeStaging(path.join(parent, "import"));
  try {
    writeFilesInto(staging, files);
    const check = checkSkillDir(staging, { rules: "omniforge" });
    if (!check.loadable || !check.properties) {
      const err = check.diagnostics.find((d) => d.severity === "error");
      throw new InstallError(`refused ${label}: SKILL.md does not load: ${err?.message ?? "unreadable"}`, "install.invalid");
    }
    const name = check.properties.name;
    if (!isSafeSegment(name)) throw new InstallError(`refused ${label}: the skill name "${name}" cannot be a folder name`, "install.invalid");
    return { staging, name };
  } catch (e) {
    fs.rmSync(staging, { recursive: true, force: true });
    if (e instanceof SkillCopyError) throw new InstallError(`refused ${label}: ${e.message}`, "install.copy");
    throw e;
  }
}

/** The report of a skill written at `dir`; its SKILL.md is checked again in place (in staging the folder name differs). */
function written(name: string, dir: string, read: Awaited<ReturnType<typeof readInstallSource>>, replaced: boolean): Written {
  return {
    name,
    dir,
    format: read.format,
    files: read.files.length,
    totalBytes: read.files.reduce((n, f) => n + f.data.length, 0),
    replaced,
    diagnostics: checkSkillDir(dir, { rules: "omniforge" }).diagnostics,
    skipped: read.skipped,
  };
}

export interface ImportResult extends Written {
  layer: LayerName;
  plugin?: string;
}

/**
 * Imports a skill (folder, archive path or uploaded bytes) into any layer: <layer root>/<name>, written
 * atomically. The plugin layer goes through installSkill (plugin folder + manifest).
 */
export async function importSkill(source: SkillSource, config: LayerConfig, layer: LayerName, opts: InstallOptions = {}): Promise<ImportResult> {
  if (layer === "plugin") {
    const r = await installSkill(source, config, opts);
    const { pluginDir: _dir, source: _source, ...written } = r;
    return { ...written, layer };
  }
  const label = sourceLabel(source);
  const read = await readInstallSource(source, opts.limits);
  const root = writableRoot(config, layer);
  ensurePrivateHome(config, root);
  const { staging, name } = stageSkill(read.files, root, label);
  const target = path.join(root, name);
  if (fs.existsSync(target) && !opts.force) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw new InstallError(`${target} already exists; use force to replace it`, "install.exists");
  }
  const { replaced } = commitStaging(staging, target, opts.force === true);
  return { ...written(name, target, read, replaced), layer };
}

export async function installSkill(source: SkillSource, config: LayerConfig, opts: InstallOptions = {}): Promise<InstallResult> {
  if (opts.plugin !== undefined && !isSafeSegment(opts.plugin)) {
    throw new InstallError(`invalid plugin name "${opts.plugin}": use letters, digits, dot, dash or underscore`, "install.plugin-name");
  }
  const label = sourceLabel(source);
  const read = await readInstallSource(source, opts.limits);
  // The skill is staged inside the plugin's staging folder, so one rename puts plugin.json and skill in place.
  ensurePrivateHome(config, pluginsDir(config));
  const staging = makeStaging(path.join(pluginsDir(config), "install"));
  try {
    const { staging: incoming, name } = stageSkill(read.files, staging, label);
    const plugin = opts.plugin ?? name;
    const pluginDir = path.join(/*turbopackIgnore: true*/ pluginsDir(config), plugin);
    if (fs.existsSync(/*turbopackIgnore: true*/ pluginDir) && !opts.force) {
      throw new InstallError(`the plugin "${plugin}" is already installed at ${pluginDir}; use --force to replace it`, "install.exists");
    }
    fs.mkdirSync(path.join(staging, "skills"));
    fs.renameSync(incoming, path.join(staging, "skills", name));
    const manifest: PluginManifest = {
      name: plugin,
      installedAt: (opts.now?.() ?? new Date()).toISOString(),
      source: typeof source === "string" ? path.resolve(source) : `upload:${source.fileName}`,
    };
    fs.writeFileSync(path.join(staging, "plugin.json"), JSON.stringify(manifest, null, 2) + "\n");
    const { replaced } = commitStaging(staging, pluginDir, opts.force === true);
    const dir = path.join(pluginDir, "skills", name);
    return { ...written(name, dir, read, replaced), plugin, pluginDir, source: manifest.source };
  } catch (e) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw e;
  }
}
