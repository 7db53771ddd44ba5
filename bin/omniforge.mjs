#!/usr/bin/env node
// The `omniforge` command. It runs the CLI compiled by esbuild (dist/cli, made at `npm install` and `npm run
// build`), so no TypeScript compiler runs per call. Before that it checks the bundle against the sources
// it was made from and rebuilds it when any changed, so the bin is never stale (scripts/cli-bundle.mjs). The
// bundle runs with the code cache of its command (scripts/cli-code-cache.mjs).
import { createRequire } from "node:module";
import { cliEntry } from "../scripts/cli-bundle.mjs";
import { loadCli } from "../scripts/cli-code-cache.mjs";

// Builtins through require, not ES imports: see scripts/cli-bundle.mjs.
const require = createRequire(import.meta.url);
const path = require("node:path");
const { fileURLToPath, pathToFileURL } = require("node:url");

// `omniforge skill list | head` closes the pipe early: that is the reader's choice, not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (e) => {
    if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw e;
  });
}

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const argv = process.argv.slice(2);
let main;
/**
 * The bundle's commands script's file name (content-hashed, so it changes with any command's code): what the CLI
 * keeps between runs (a listing's cache) is kept per build.
 */
let build;
/** Writes the command's code cache when one is due (none when run from source). */
let finished = () => {};
/** What failed, for the message: making the bundle (a source error) or running its entry. */
let stage = "build the CLI from server/cli";
try {
  const t0 = Date.now();
  const { entry, commands, rebuilt } = await cliEntry(repo);
  stage = `load the CLI bundle ${path.relative(repo, entry)}`;
  if (rebuilt && process.stderr.isTTY) process.stderr.write(`omniforge: sources changed, CLI rebuilt (${Date.now() - t0} ms)\n`);
  const cli = loadCli({ entry, commands });
  ({ main } = cli.exports);
  const { commandOf } = cli.exports;
  finished = () => cli.finished(typeof commandOf === "function" && commandOf(argv) !== null);
  build = path.basename(commands ?? entry);
} catch (e) {
  if (e?.code !== "ERR_MODULE_NOT_FOUND" && e?.code !== "EACCES" && e?.code !== "EROFS" && e?.code !== "EPERM") {
    // A source error: esbuild's message says where. Running an old bundle instead would hide it.
    process.stderr.write(`omniforge: cannot ${stage}: ${e?.message ?? e}\n`);
    process.exit(1);
  }
  // No esbuild installed, or a read-only checkout: compile on the fly instead (slower, never stale).
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import(pathToFileURL(path.join(repo, "server/cli/main.ts")).href));
}
// The process entry hands the CLI its streams and environment (server/cli/io.ts); settings in it are still read
// and checked through env.ts's setting().
const io = { out: (text) => process.stdout.write(text), outBytes: (bytes) => process.stdout.write(bytes), err: (text) => process.stderr.write(text), env: process.env, cwd: process.cwd(), build };
process.exitCode = await main(argv, io);
finished();

// Before a natural exit Node waits for V8's background jobs (concurrent GC marking, compiler tasks): 10-25 ms
// after a `skill validate` of hundreds of skills. When the command left nothing running but the output streams,
// flush those and exit at once; anything else pending (a timer, a child process, a socket) ends the natural way.
const STREAMS = new Set(["PipeWrap", "TTYWrap", "SimpleWriteWrap", "WriteWrap", "ShutdownWrap"]);
if (process.getActiveResourcesInfo().every((r) => STREAMS.has(r))) {
  const flushed = (stream) => new Promise((done) => (stream.writableLength > 0 ? stream.write("", done) : done()));
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit();
}
