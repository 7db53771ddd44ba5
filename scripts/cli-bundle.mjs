// The `omniforge` CLI ships compiled: esbuild bundles server/cli into dist/cli (gitignored) at `npm install`
// (prepare), at `npm run build`, and whenever bin/omniforge.mjs finds the bundle stale. Plain JavaScript so it
// runs before anything is compiled. CommonJS scripts, so they run with a V8 code cache (cli-code-cache.mjs): a small
// entry (main.ts: arguments and help, all `omniforge --help` compiles) and the commands script, where each
// command's modules are evaluated only when that command runs, so `omniforge skill validate` never loads the agent
// run's `ai` packages. Beside them: the walk's helper thread (its own small file) and the YAML parser (required on
// first use).
//
// Never stale: the manifest records every source file esbuild read (plus env.ts, package.json, the lockfile,
// tsconfig.json and this file) with its mtime, size and sha256. The bin stats that list on every call (about a
// hundred stats, under a millisecond); a file whose mtime or size moved is hashed, and only a changed hash
// rebuilds. Output names carry content hashes and the manifest is replaced by an atomic rename, so a process
// that starts while another one rebuilds runs either the old complete bundle or the new one, never a mix.
import { createRequire } from "node:module";
import { codeCacheOwner } from "./cli-code-cache.mjs";

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
/** 5: CommonJS scripts (an entry and the commands) instead of ES module chunks; an older manifest means a rebuild. */
const FORMAT = 5;
/** The walk's helper thread runs this module; bundled on its own, as the thread loads nothing else. */
const READ_HELPER = "server/runtime/skill/read-helper.ts";
/**
 * Packages compiled into a file of dist/cli instead of loaded from node_modules: the YAML parser. As a package it is
 * about 190 CommonJS files, each resolved, read and compiled on its own (about 30 ms of CPU per start); bundled it
 * is one file (under 10 ms), yamlBundle's, which every import of "yaml" requires.
 */
const BUNDLED = ["yaml"];

/**
 * Every bare import (a package or node: builtin) stays an import, except the tsconfig "~/" alias and BUNDLED's, which
 * go to `yamlFile`: the YAML parser bundled on its own (yamlBundle), required on first use.
 */
const dependenciesExternal = (yamlFile) => ({
  name: "dependencies-external",
  setup(build) {
    // The runtime loads YAML on first use through createRequire (a path esbuild cannot follow). Here it requires
    // the parser's own file beside the bundle instead: compiled into the CLI's script, its 260 KB would be parsed
    // at every start without a code cache, which fast-yaml.ts spares the parser in nearly every run.
    build.onLoad({ filter: /[\\/]server[\\/]runtime[\\/]skill[\\/]yaml-module\.ts$/ }, () => ({
      contents: `let loaded = null;\nexport const yamlModule = () => (loaded ??= require(${JSON.stringify(`./${yamlFile}`)}));\n`,
      loader: "js",
    }));
    build.onResolve({ filter: /^\.\/yaml-[A-Z0-9]+\.cjs$/ }, (args) => ({ path: args.path, external: true }));
    build.onResolve({ filter: /^[^./~]/ }, (args) => {
      if (args.kind === "entry-point") return undefined;
      // The modules importing "yaml" themselves (the frontmatter editor, policy files) share the same file.
      if (BUNDLED.includes(args.path)) return { path: `./${yamlFile}`, external: true };
      return BUNDLED.some((p) => args.path.startsWith(`${p}/`)) ? undefined : { path: args.path, external: true };
    });
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
 * @typedef {{ format: number, entry: string, commands: string | null, files: string[], inputs: Input[], esbuild: string, builtAt: string }} Manifest
 */

// node:crypto is loaded only when a file must be hashed: the usual call (nothing changed) never needs it.
const sha256 = (file) => require("node:crypto").createHash("sha256").update(fs.readFileSync(file)).digest("hex");

/** @returns {Manifest | null} */
function readManifest(outDir) {
  try {
    const m = JSON.parse(fs.readFileSync(path.join(outDir, MANIFEST), "utf8"));
    return m && m.format === FORMAT && typeof m.entry === "string" && (m.commands === null || typeof m.commands === "string") && Array.isArray(m.inputs) ? m : null;
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
 * The bundle's entry and commands scripts when the bundle matches the sources, else null. Cheap: one read of the
 * manifest and a stat per recorded input; hashing only for files whose stat moved (a checkout that rewrote
 * identical content).
 * @returns {{ entry: string, commands: string | null } | null}
 */
export function freshBundle(repo, outDir = path.join(repo, BUNDLE_DIR)) {
  const m = readManifest(outDir);
  if (!m) return null;
  const entry = path.join(outDir, m.entry);
  const commands = m.commands === null ? null : path.join(outDir, m.commands);
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
  if (!fs.existsSync(entry) || (commands !== null && !fs.existsSync(commands))) return null;
  if (restamped) {
    // Same content under a new mtime (git checkout, touch): remember the new stat so the next call is cheap again.
    try {
      writeAtomic(path.join(outDir, MANIFEST), JSON.stringify({ ...m, inputs: restamped }));
    } catch {
      // read-only checkout: the hash comparison simply runs again next time
    }
  }
  return { entry, commands };
}

/**
 * The bundle's files, built in memory: the YAML parser, the walk's helper, the entry script (main.ts: arguments
 * and help) and the commands script (every command main.ts loads, each initialised when first asked for).
 */
async function bundle(esbuild, repo, outDir) {
  const yaml = await yamlBundle(esbuild, repo, outDir);
  const common = {
    absWorkingDir: repo,
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node22",
    // Dependencies load from node_modules as usual (native better-sqlite3, CommonJS packages, ES-only ones through
    // require), except the few in BUNDLED; the lockfile is watched for their changes.
    plugins: [dependenciesExternal(yaml.name)],
    // A script has no import.meta: the modules that find files beside themselves get the script's own URL.
    define: { "import.meta.url": "__omniforgeModuleUrl", "import.meta.dirname": "__dirname" },
    banner: { js: 'var __omniforgeModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
    outdir: outDir,
    entryNames: "[name]-[hash]",
    outExtension: { ".js": ".cjs" },
    metafile: true,
    write: false,
    logLevel: "silent",
  };
  const metafileInputs = {};
  const built = async (options) => {
    const result = await esbuild.build(options);
    Object.assign(metafileInputs, result.metafile.inputs);
    return result.outputFiles[0];
  };
  // The helper first: its file name (content-hashed) goes into the commands script.
  const helperOut = fs.existsSync(path.join(repo, READ_HELPER)) ? await built({ ...common, entryPoints: [READ_HELPER] }) : null;
  const commandNames = new Set();
  const entryOut = await built({ ...common, entryPoints: [ENTRY], plugins: [...common.plugins, commandsApart(repo, commandNames)] });
  const commandsOut = commandNames.size
    ? await built({
        ...common,
        stdin: { contents: commandsModule(commandNames), resolveDir: path.join(repo, path.dirname(ENTRY)), sourcefile: "commands.cjs", loader: "js" },
        entryNames: "commands-[hash]",
        define: helperOut ? { ...common.define, __OMNIFORGE_READ_HELPER__: JSON.stringify(`./${path.relative(outDir, helperOut.path)}`) } : common.define,
      })
    : null;
  const outputs = [entryOut, commandsOut, helperOut, yaml.out].filter(Boolean);
  return { outputs, metafileInputs, entryOut, commandsOut };
}

/**
 * In the entry script, main.ts's `import("./commands/x")` becomes a request for x to the commands script, which
 * the bin's loader (cli-code-cache.mjs) compiles with x's code cache when a command first needs it. `names`
 * collects the commands asked for.
 */
const commandsApart = (repo, names) => ({
  name: "commands-apart",
  setup(build) {
    // esbuild names importers by their real path (a checkout reached through a link included).
    const main = fs.realpathSync(path.join(repo, ENTRY));
    build.onResolve({ filter: /^\.\/commands\/[a-z0-9-]+$/ }, (args) => {
      if (args.kind !== "dynamic-import" || args.importer !== main) return undefined;
      const name = args.path.slice("./commands/".length);
      names.add(name);
      return { path: name, namespace: "omniforge-command" };
    });
    build.onLoad({ filter: /.*/, namespace: "omniforge-command" }, (args) => ({
      contents: `module.exports = __omniforgeCommand(${JSON.stringify(args.path)});\n`,
      loader: "js",
    }));
  },
});

/** The commands script's entry: each command module by name, initialised on its first request. */
const commandsModule = (names) =>
  `exports.command = (name) => {\n  switch (name) {\n${[...names]
    .sort()
    .map((n) => `    case ${JSON.stringify(n)}:\n      return require(${JSON.stringify(`./commands/${n}`)});\n`)
    .join("")}  }\n  throw new Error("no command module " + name);\n};\n`;

/**
 * Bundles server/cli into outDir; returns its entry and commands scripts (as freshBundle). Throws with esbuild's
 * message on a source error.
 */
export async function buildCliBundle(repo, outDir = path.join(repo, BUNDLE_DIR)) {
  const esbuild = await import("esbuild");
  for (let attempt = 1; ; attempt++) {
    const started = Date.now();
    const { outputs, metafileInputs, entryOut, commandsOut } = await bundle(esbuild, repo, outDir);
    const sources = Object.keys(metafileInputs).filter((rel) => !rel.startsWith("node_modules/") && !rel.includes(":"));
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
    for (const out of outputs) {
      files.push(path.relative(outDir, out.path));
      // Names carry content hashes: an existing file of that name already holds these bytes.
      const existing = fs.statSync(out.path, { throwIfNoEntry: false });
      if (!existing || existing.size !== out.contents.length) writeAtomic(out.path, out.contents);
    }
    const entry = path.relative(outDir, entryOut.path);
    const commands = commandsOut ? path.relative(outDir, commandsOut.path) : null;
    /** @type {Manifest} */
    const manifest = { format: FORMAT, entry, commands, files, inputs, esbuild: esbuild.version, builtAt: new Date().toISOString() };
    writeAtomic(path.join(outDir, MANIFEST), JSON.stringify(manifest));
    // Keep this build and the one before it (a process started just before the switch may still load its
    // chunks); drop older ones and temporary files of writes that crashed (not of one still running).
    const keep = new Set([MANIFEST, ...files, ...(previous?.files ?? [])]);
    for (const name of fs.readdirSync(outDir)) {
      // A code cache (cli-code-cache.mjs) goes with its script.
      if (keep.has(name) || keep.has(codeCacheOwner(name))) continue;
      const file = path.join(outDir, name);
      if (name.endsWith(".tmp") && Date.now() - (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0) < 60_000) continue;
      fs.rmSync(file, { force: true, recursive: true });
    }
    return { entry: path.join(outDir, entry), commands: commands === null ? null : path.join(outDir, commands) };
  }
}

/** The scripts to run (freshBundle's): the fresh bundle, rebuilt first when any recorded source changed. */
export async function cliEntry(repo, opts = {}) {
  const outDir = opts.outDir ?? path.join(repo, BUNDLE_DIR);
  const fresh = freshBundle(repo, outDir);
  if (fresh) return { ...fresh, rebuilt: false };
  return { ...(await buildCliBundle(repo, outDir)), rebuilt: true };
}

// `node scripts/cli-bundle.mjs`: the prepare step of `npm install`, and part of `npm run build`.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const t0 = performance.now();
  try {
    const { entry } = await buildCliBundle(repo);
    const m = readManifest(path.dirname(entry));
    console.log(
      `[omniforge] bundled the CLI into ${path.relative(repo, path.dirname(entry))} (${m?.files.length ?? "?"} files from ${m?.inputs.length ?? "?"} sources, ${Math.round(performance.now() - t0)} ms)`,
    );
  } catch (e) {
    console.error(`omniforge: bundling the CLI failed: ${e.message}`);
    process.exit(1);
  }
}
