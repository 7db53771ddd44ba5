// The CLI's code caches: a script loaded through loadCli runs from the cache an earlier run wrote, a cache that is not
// whole or not ours is never used, and writing one never fails a command. Each run is a process of its own, so V8
// itself decides whether it takes a cache.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeCacheFile, codeCacheOwner, readCodeCache } from "./cli-code-cache.mjs";

const repo = path.resolve(import.meta.dirname, "..");
let dir: string;
let entry: string;
let commands: string;

/** Stand-ins for the bundle's two scripts: an entry that runs `run <module> args...`, and command modules to compile. */
const ENTRY = `"use strict";
exports.main = async (argv) => (argv[0] === "run" ? __omniforgeCommand(argv[1]).run(argv.slice(2)) : "help");
exports.commandOf = (argv) => (argv[0] === "run" ? argv[1] : null);
`;
const COMMANDS = `"use strict";
function words(n) { const out = []; for (let i = 0; i < n; i++) out.push("w" + i); return out; }
function joined(n) { return words(n).join(" "); }
exports.command = (name) => ({ run: (args) => name + ": " + joined(3) + " " + args.join(",") });
`;

/** Runs the stand-ins in a fresh process (V8 flags as given) as the bin does; what it reports. */
function run(argv: string[], flags: string[] = []): { out: string; used: boolean; wrote: boolean } {
  const code = `
    import { loadCli } from ${JSON.stringify(path.join(repo, "scripts", "cli-code-cache.mjs"))};
    const argv = ${JSON.stringify(argv)};
    const cli = loadCli(${JSON.stringify({ entry, commands })});
    const out = await cli.exports.main(argv);
    const wrote = cli.finished(cli.exports.commandOf(argv) !== null);
    process.stdout.write(JSON.stringify({ out, used: cli.usedCache, wrote }));`;
  return JSON.parse(execFileSync(process.execPath, [...flags, "--input-type=module", "-e", code], { encoding: "utf8" })) as { out: string; used: boolean; wrote: boolean };
}

const cacheOf = (key: string) => codeCacheFile(commands, key);
const stamp = () => fs.statSync(commands).mtimeMs;
const caches = () => fs.readdirSync(dir).filter((f) => f.endsWith(".v8cache")).sort();

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "of-code-cache-"));
  entry = path.join(dir, "main-ABC123.cjs");
  commands = path.join(dir, "commands-DEF456.cjs");
  fs.writeFileSync(entry, ENTRY);
  fs.writeFileSync(commands, COMMANDS);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the CLI's code cache", () => {
  it("is written by a command's first run and used by the next, which leaves it as it is", () => {
    expect(run(["run", "skill-list", "--json"])).toEqual({ out: "skill-list: w0 w1 w2 --json", used: false, wrote: true });
    const file = cacheOf("skill-list");
    expect(path.basename(file)).toBe(`commands-DEF456.cjs.skill-list.${process.version}-${process.arch}.v8cache`);
    const first = fs.statSync(file);
    expect(readCodeCache(file, stamp())!.data.length).toBeGreaterThan(100);
    expect(run(["run", "skill-list"])).toEqual({ out: "skill-list: w0 w1 w2 ", used: true, wrote: false });
    expect(fs.statSync(file).mtimeMs).toBe(first.mtimeMs);
  });

  it("keeps one cache per command module; a run of no command (help) loads and writes none", () => {
    expect(run(["--help"])).toEqual({ out: "help", used: false, wrote: false });
    expect(run(["run", "policy", "list"])).toMatchObject({ out: "policy: w0 w1 w2 list", used: false, wrote: true });
    expect(run(["run", "policy", "block"])).toMatchObject({ used: true, wrote: false });
    expect(caches()).toEqual([path.basename(cacheOf("policy")), path.basename(cacheOf("skill-list"))]);
  });

  it("a cache cut short, damaged in its header or not ours is not used, and the run writes a whole one", () => {
    const file = cacheOf("skill-list");
    const whole = fs.readFileSync(file);
    for (const bad of [whole.subarray(0, whole.length - 7), Buffer.concat([Buffer.from("x"), whole.subarray(1)]), Buffer.from("not a cache at all")]) {
      fs.writeFileSync(file, bad);
      expect(readCodeCache(file, stamp())).toBeNull();
      expect(run(["run", "skill-list"])).toEqual({ out: "skill-list: w0 w1 w2 ", used: false, wrote: true });
      expect(readCodeCache(file, stamp())).not.toBeNull();
    }
  });

  it("a cache made for another version of its script is not used, even when V8 would take it (same length)", () => {
    expect(run(["run", "skill-list"])).toMatchObject({ used: true });
    // Edited in place to the same length, as a digit changed while debugging: V8 compares lengths only.
    const edited = COMMANDS.replace('"w" + i', '"v" + i');
    expect(edited.length).toBe(COMMANDS.length);
    fs.writeFileSync(commands, edited);
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(commands, later, later);
    expect(run(["run", "skill-list"])).toEqual({ out: "skill-list: v0 v1 v2 ", used: false, wrote: true });
    expect(run(["run", "skill-list"])).toEqual({ out: "skill-list: v0 v1 v2 ", used: true, wrote: false });
    fs.writeFileSync(commands, COMMANDS);
    const latest = new Date(Date.now() + 10_000);
    fs.utimesSync(commands, latest, latest);
  });

  it("a cache V8 refuses (other V8 flags) is replaced, and the run still works", () => {
    expect(run(["run", "skill-list"], ["--no-opt"])).toEqual({ out: "skill-list: w0 w1 w2 ", used: false, wrote: true });
    expect(run(["run", "skill-list"], ["--no-opt"])).toMatchObject({ used: true, wrote: false });
    expect(run(["run", "skill-list"])).toMatchObject({ used: false, wrote: true });
  });

  it("a folder, or a pipe that never ends, in a cache's place is not read (no hang)", () => {
    const fifo = cacheOf("doctor");
    fs.rmSync(fifo, { force: true });
    execFileSync("mkfifo", [fifo]);
    const t0 = Date.now();
    expect(readCodeCache(fifo, stamp())).toBeNull();
    expect(Date.now() - t0).toBeLessThan(2000);
    fs.rmSync(fifo);
    fs.mkdirSync(fifo);
    expect(readCodeCache(fifo, stamp())).toBeNull();
    // Nor can it be written there: the command still succeeds, and no temporary file is left behind.
    expect(run(["run", "doctor"])).toEqual({ out: "doctor: w0 w1 w2 ", used: false, wrote: false });
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    fs.rmdirSync(fifo);
  });

  it("names the script each cache belongs to, so a rebuild removes caches with their script", () => {
    expect(codeCacheOwner("commands-DEF456.cjs.skill-list.v22.23.3-x64.v8cache")).toBe("commands-DEF456.cjs");
    expect(codeCacheOwner(path.basename(cacheOf("agent-run")))).toBe("commands-DEF456.cjs");
    expect(codeCacheOwner("commands-DEF456.cjs")).toBe("");
    expect(codeCacheOwner("manifest.json")).toBe("");
    expect(codeCacheOwner("commands-DEF456.cjs.skill-list.v22.23.3-x64.v8cache.123.tmp")).toBe("");
  });
});
