// The CLI bundle's scripts (cli-bundle.mjs) run from here. The entry (main.ts: arguments and help) is small and
// compiled as it is; the commands script, loaded when a command first needs its module, is compiled with a V8 code
// cache: the bytecode of the functions an earlier run of the same command compiled, so a start skips parsing and
// compiling them (about a tenth of a `skill validate`; docs/performance.md). Plain JavaScript, loaded by
// bin/omniforge.mjs before the bundle.
//
// A cache sits beside its script in dist/cli, one per command module and Node version, and goes when the build
// replaces the script. A run writes it when it found none (or one V8 refused: another V8 build or other V8 flags),
// or when it ran more than twice as long as the run that wrote it, and longer by a tenth of a second (a big listing
// after a small one: more of the code ran; the new cache holds the old one's functions too). Always through a
// temporary file and a rename, so a reader sees a whole cache or none. V8 checks a cache's version, flags and
// source length before using any of it, and the header the script's mtime (a same-length edit). A cache is code:
// it lives where the bundle lives, writable by whoever may already rewrite the bundle.
import { createRequire } from "node:module";

// Builtins through require, as in cli-bundle.mjs (an ES import of node:fs loads its promises API too).
const require = createRequire(import.meta.url);
/** @type {typeof import("node:fs")} */
const fs = require("node:fs");
/** @type {typeof import("node:path")} */
const path = require("node:path");
/** @type {typeof import("node:vm")} */
const vm = require("node:vm");
const { isAscii } = /** @type {typeof import("node:buffer")} */ (require("node:buffer"));

const SUFFIX = ".v8cache";
/**
 * Our header: this tag, the writing run's milliseconds and the cache's length (little-endian uint32 each), and the
 * script's mtime when the cache was made (float64). V8 compares a source's length only: a script edited in place
 * to the same length (a digit changed while debugging) would otherwise run the old bytecode.
 */
const MAGIC = Buffer.from("omniforge-v8cache-2\n", "latin1");
const HEADER_BYTES = MAGIC.length + 16;
/** A file larger than this in the cache's place is not ours: not read. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;
/** A command module's name ("skill-list"): what a cache file is named after. */
const NAME = /^[a-z][a-z0-9-]{0,63}$/;
/** How much longer than the run that wrote a cache a run must also be to write it again (see above). */
const REWRITE_AFTER_MS = 100;

/** The script a cache file belongs to (its name without the cache's own part), or "" for any other file. */
export function codeCacheOwner(name) {
  const m = /^(.+?\.cjs)\.[a-z0-9-]+\.v[\d.]+-[a-z0-9_]+\.v8cache$/.exec(name);
  return m ? m[1] : "";
}

/** The cache file of `script` for the command module `key` ("skill-list"), under this Node version. */
export function codeCacheFile(script, key) {
  return `${script}.${key}.${process.version}-${process.arch}${SUFFIX}`;
}

/**
 * A cache file's payload and the writing run's milliseconds, or null when it is absent, not a whole cache of ours,
 * or made for another version of its script (`scriptMtimeMs`).
 */
export function readCodeCache(file, scriptMtimeMs) {
  let fd;
  try {
    // Non-blocking: opening a named pipe put in a cache's place would otherwise wait for a writer forever.
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size < HEADER_BYTES || st.size > MAX_CACHE_BYTES) return null;
    const buf = Buffer.allocUnsafe(st.size);
    let got = 0;
    while (got < st.size) {
      const n = fs.readSync(fd, buf, got, st.size - got, got);
      if (n === 0) return null;
      got += n;
    }
    if (!buf.subarray(0, MAGIC.length).equals(MAGIC)) return null;
    if (buf.readUInt32LE(MAGIC.length + 4) !== st.size - HEADER_BYTES) return null;
    if (buf.readDoubleLE(MAGIC.length + 8) !== scriptMtimeMs) return null;
    return { data: buf.subarray(HEADER_BYTES), ms: buf.readUInt32LE(MAGIC.length) };
  } catch {
    return null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Writes a cache whole or not at all; a folder that cannot be written (a read-only checkout) simply gets none. */
function writeCodeCache(file, data, ms, scriptMtimeMs) {
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header);
  header.writeUInt32LE(Math.min(Math.round(ms), 0xffffffff), MAGIC.length);
  header.writeUInt32LE(data.length, MAGIC.length + 4);
  header.writeDoubleLE(scriptMtimeMs, MAGIC.length + 8);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, Buffer.concat([header, data]), { mode: 0o644 });
    fs.renameSync(tmp, file);
    return true;
  } catch {
    fs.rmSync(tmp, { force: true });
    return false;
  }
}

/** A script as text: one-byte when it is ASCII (esbuild escapes what it can), which V8 scans fastest, else UTF-8. */
function sourceOf(script) {
  const bytes = fs.readFileSync(script);
  return isAscii(bytes) ? bytes.latin1Slice() : bytes.toString("utf8");
}

/** Compiles a script inside the wrapper Node's own loader uses, on the source's first line (positions stay true). */
const compile = (script, cachedData) =>
  new vm.Script(`(function (exports, require, module, __filename, __dirname, __omniforgeCommand) { ${sourceOf(script)}\n})`, {
    filename: script,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });

/** Runs a compiled script as Node's loader would, with the commands script's lookup at hand; returns its exports. */
function run(compiled, script, command) {
  const module = { exports: {} };
  compiled.runInThisContext().call(module.exports, module.exports, createRequire(script), module, script, path.dirname(script), command);
  return module.exports;
}

/**
 * Runs the CLI's `entry` script; `commands` is compiled, with the code cache of the first command module asked
 * for, when the entry first asks for one. Returns the entry's exports and `finished(ran)`, to call when the command
 * is done, with whether a command ran (not a listing of a group's commands, which loads several): it writes that
 * command's cache when one is due, and says whether it wrote one.
 */
export function loadCli({ entry, commands }) {
  /** @type {null | { exports: any, compiled: import("node:vm").Script, file: string, stamp: number, cached: { ms: number } | null, used: boolean, t0: number }} */
  let loaded = null;
  const command = (key) => {
    if (!loaded) {
      if (!commands || !NAME.test(key)) throw new Error(`the CLI bundle has no command module "${key}"`);
      const t0 = performance.now();
      const file = codeCacheFile(commands, key);
      const stamp = fs.statSync(commands).mtimeMs;
      const cached = readCodeCache(file, stamp);
      const compiled = compile(commands, cached?.data);
      const used = cached !== null && compiled.cachedDataRejected === false;
      loaded = { exports: run(compiled, commands, command), compiled, file, stamp, cached, used, t0 };
    }
    return loaded.exports.command(key);
  };
  return {
    exports: run(compile(entry), entry, command),
    /** Whether the commands script started from a cache V8 accepted (false when no command module was loaded). */
    get usedCache() {
      return loaded?.used ?? false;
    },
    finished(ran) {
      if (!loaded || !ran) return false;
      const ms = performance.now() - loaded.t0;
      const longer = loaded.cached !== null && ms > 2 * loaded.cached.ms && ms > loaded.cached.ms + REWRITE_AFTER_MS;
      if (loaded.used && !longer) return false;
      try {
        return writeCodeCache(loaded.file, loaded.compiled.createCachedData(), ms, loaded.stamp);
      } catch {
        return false; // a cache is never worth failing a command that succeeded
      }
    },
  };
}
