// The `omniforge` CLI ships compiled: esbuild bundles server/cli into dist/cli (gitignored) at `npm install`
// (prepare), at `npm run build`, and whenever bin/omniforge.mjs finds the bundle stale. Plain JavaScript so it
// runs before anything is compiled. ES modules split per command: `omniforge --help` loads a 2 KB entry, and a
// command loads only its own chunks (the agent run's `ai` imports stay out of `skill list`).
//
// Never stale: the manifest records every source file esbuild read (plus env.ts, package.json, the lockfile,
// tsconfig.json and this file) with its mtime, size and sha256. The bin stats that list on every call (about a
// hundred stats, under a millisecond); a file whose mtime or size moved is hashed, and only a changed hash
// rebuilds. Output names carry content hashes and the manifest is replaced by an atomic rename, so a process
// that starts while another one rebuilds runs either the old complete bundle or the new one, never a mix.
import { createRequire } from "node:module";

// Builtins through require: an ES import of node:fs builds its ES facade, which touches every export and so loads
// fs/promises and the streams (a few milliseconds of every `omniforge` start).
const require = createRequire(import.meta.url);
/** @type {typeof import("node:fs")} */
const fs = require("node:fs");
/** @type {typeof import("node:path")} */
const path = require("node:path");
const { fileURLToPath, pathToFileURL } = /** @type {typeof import("node:url")} */ (require("node:url"));

export const BUNDLE_DIR = path.join("dist", "cli");
const MANIFEST = "manifest.json";
const ENTRY = "server/cli/main.ts";
/** Files outside the import graph that still decide what the bundle is. */
const ALWAYS_WATCHED = ["package.json", "package-lock.json", "tsconfig.json", "env.ts", "scripts/cli-bundle.mjs"];
const FORMAT = 4;
/**
 * Packages compiled into the bundle instead of loaded from node_modules: the YAML parser. As a package it is about
 * 190 CommonJS files, each resolved, read and compiled on its own (about 30 ms of CPU per start); bundled it is one
 * file (under 10 ms).
 */
const BUNDLED = ["yaml"];

/**
 * Every bare import (a package or node: builtin) stays an import, except BUNDLED's and the tsconfig "~/" alias.
 * `yamlFile`: the YAML parser bundled on its own (yamlBundle), which the runtime's on-first-use loader requires.
 */
const dependenciesExternal = (yamlFile) => ({
  name: "dependencies-external",
  setup(build) {
    // The runtime loads YAML on first use through createRequire (a path esbuild cannot follow). Here it requires
    // the parser's own file beside the chunks instead: a chunk importing it would compile its 260 KB at every
    // `skill validate` and `skill list`, which fast-yaml.ts spares the parser in nearly every run.
    build.onLoad({ filter: /[\\/]server[\\/]runtime[\\/]skill[\\/]yaml-module\.ts$/ }, () => ({
      contents: `let loaded = null;\nexport const yamlModule = () => (loaded ??= require(${JSON.stringify(`./${yamlFile}`)}));\n`,
      loader: "js",
    }));
    build.onResolve({ filter: /^\.\/yaml-[A-Z0-9]+\.cjs$/ }, (args) => ({ path: args.path, external: true }));
    build.onResolve({ filter: /^[^./~]/ }, (args) =>
      args.kind === "entry-point" || BUNDLED.some((p) => args.path === p || args.path.startsWith(`${p}/`)) ? undefined : { path: args.path, external: true },
    );
  },
});

/** The yaml package as one CommonJS file (its name content-hashed), for the runtime's on-first-use loader. */
async function yamlBundle(esbuild, repo, outDir) {
  const result = await esbuild.build({
    absWorkingDir: repo,
    stdin: { contents: 'module.exports = require("yaml");', resolveDir: repo, sourcefile: "yaml-entry.cjs" },
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20.19",
    outdir: outDir,
    entryNames: "yaml-[hash]",
    outExtension: { ".js": ".cjs" },
    write: false,
    logLevel: "silent",
  });
  const [out] = result.outputFiles;
  return { name: path.relative(outDir, out.path), out };
}

/**
 * @typedef {[rel: string, mtimeMs: number, size: number, sha256: string]} Input
 * @typedef {{ format: number, entry: string, files: string[], inputs: Input[], esbuild: string, builtAt: string }} Manifest
 */

// node:crypto is loaded only when a file must be hashed: the usual call (nothing changed) never needs it.
const sha256 = (file) => require("node:crypto").createHash("sha256").update(fs.readFileSync(file)).digest("hex");

/** @returns {Manifest | null} */
function readManifest(outDir) {
  try {
    const m = JSON.parse(fs.readFileSync(path.join(outDir, MANIFEST), "utf8"));
    return m && m.format === FORMAT && typeof m.entry === "string" && Array.isArray(m.inputs) ? m : null;
  } catch {
    return null;
  }
}

function writeAtomic(file, data) {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}

/**
 * The bundle's entry file when the bundle matches the sources, else null. Cheap: one read of the manifest and a
 * stat per recorded input; hashing only for files whose stat moved (a checkout that rewrote identical content).
 */
export function freshEntry(repo, outDir = path.join(repo, BUNDLE_DIR)) {
  const m = readManifest(outDir);
  if (!m) return null;
  const entry = path.join(outDir, m.entry);
  /** @type {Input[] | null} */
  let restamped = null;
  for (let i = 0; i < m.inputs.length; i++) {
    const [rel, mtimeMs, size, digest] = m.inputs[i];
    // Recorded paths are already normal (esbuild's metafile): a concatenation spares a normalize per input.
    const file = repo + path.sep + rel;
    const st = fs.statSync(file, { throwIfNoEntry: false });
    if (!st) return null;
    if (st.mtimeMs === mtimeMs && st.size === size) continue;
    if (st.size !== size || sha256(file) !== digest) return null;
    restamped ??= m.inputs.slice();
    restamped[i] = [rel, st.mtimeMs, size, digest];
  }
  if (!fs.existsSync(entry)) return null;
  if (restamped) {
    // Same content under a new mtime (git checkout, touch): remember the new stat so the next call is cheap again.
    try {
      writeAtomic(path.join(outDir, MANIFEST), JSON.stringify({ ...m, inputs: restamped }));
    } catch {
      // read-only checkout: the hash comparison simply runs again next time
    }
  }
  return entry;
}

/** Bundles server/cli into outDir and returns the entry file. Throws with esbuild's message on a source error. */
export async function buildCliBundle(repo, outDir = path.join(repo, BUNDLE_DIR)) {
  const esbuild = await import("esbuild");
  for (let attempt = 1; ; attempt++) {
    const started = Date.now();
    const yaml = await yamlBundle(esbuild, repo, outDir);
    const result = await esbuild.build({
      absWorkingDir: repo,
      entryPoints: [ENTRY],
      bundle: true,
      // Each command is a dynamic import in main.ts: splitting makes it a chunk loaded only when that command runs.
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20.19",
      // Dependencies load from node_modules as usual (native better-sqlite3, CommonJS packages), except the few
      // in BUNDLED; the lockfile is watched for their changes.
      plugins: [dependenciesExternal(yaml.name)],
      // A bundled CommonJS package requires node builtins ("process"): ES module chunks get a require for that.
      banner: { js: 'import { createRequire as __omniforgeRequire } from "node:module"; const require = __omniforgeRequire(import.meta.url);' },
      outdir: outDir,
      entryNames: "[name]-[hash]",
      chunkNames: "[name]-[hash]",
      outExtension: { ".js": ".mjs" },
      metafile: true,
      write: false,
      logLevel: "silent",
    });
    const sources = Object.keys(result.metafile.inputs).filter((rel) => !rel.startsWith("node_modules/") && !rel.includes(":"));
    /** @type {Input[]} */
    const inputs = [];
    let changedDuringBuild = false;
    for (const rel of [...new Set([...sources, ...ALWAYS_WATCHED])]) {
      const file = path.join(repo, rel);
      const st = fs.statSync(file, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.mtimeMs >= started - 1) changedDuringBuild = true;
      inputs.push([rel, st.mtimeMs, st.size, sha256(file)]);
    }
    // A file saved while esbuild read the sources may not be what the bundle holds: build again.
    if (changedDuringBuild && attempt < 3) continue;
    fs.mkdirSync(outDir, { recursive: true });
    const previous = readManifest(outDir);
    const files = [];
    let entry = null;
    for (const out of [...result.outputFiles, yaml.out]) {
      const name = path.relative(outDir, out.path);
      files.push(name);
      if (result.metafile.outputs[path.relative(repo, out.path).split(path.sep).join("/")]?.entryPoint === ENTRY) entry = name;
      // Names carry content hashes: an existing file of that name already holds these bytes.
      const existing = fs.statSync(out.path, { throwIfNoEntry: false });
      if (!existing || existing.size !== out.contents.length) writeAtomic(out.path, out.contents);
    }
    if (!entry) throw new Error(`esbuild produced no output for ${ENTRY}`);
    /** @type {Manifest} */
    const manifest = { format: FORMAT, entry, files, inputs, esbuild: esbuild.version, builtAt: new Date().toISOString() };
    writeAtomic(path.join(outDir, MANIFEST), JSON.stringify(manifest));
    // Keep this build and the one before it (a process started just before the switch may still load its
    // chunks); drop older ones and temporary files of writes that crashed (not of one still running).
    const keep = new Set([MANIFEST, ...files, ...(previous?.files ?? [])]);
    for (const name of fs.readdirSync(outDir)) {
      if (keep.has(name)) continue;
      const file = path.join(outDir, name);
      if (name.endsWith(".tmp") && Date.now() - (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0) < 60_000) continue;
      fs.rmSync(file, { force: true, recursive: true });
    }
    return path.join(outDir, entry);
  }
}

/** The entry to import: the fresh bundle, rebuilt first when any recorded source changed. */
export async function cliEntry(repo, opts = {}) {
  const outDir = opts.outDir ?? path.join(repo, BUNDLE_DIR);
  const fresh = freshEntry(repo, outDir);
  if (fresh) return { entry: fresh, rebuilt: false };
  return { entry: await buildCliBundle(repo, outDir), rebuilt: true };
}

// `node scripts/cli-bundle.mjs`: the prepare step of `npm install`, and part of `npm run build`.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const t0 = performance.now();
  try {
    const entry = await buildCliBundle(repo);
    const m = readManifest(path.dirname(entry));
    console.log(
      `[omniforge] bundled the CLI into ${path.relative(repo, path.dirname(entry))} (${m?.files.length ?? "?"} files from ${m?.inputs.length ?? "?"} sources, ${Math.round(performance.now() - t0)} ms)`,
    );
  } catch (e) {
    console.error(`omniforge: bundling the CLI failed: ${e.message}`);
    process.exit(1);
  }
}
