// The compiled CLI is never stale: the real bin and bundler, run as `node bin/omniforge.mjs` in a throw-away
// project whose server/cli sources change between calls.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "..");
let dir: string;

function write(rel: string, text: string, root = dir) {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

function omniforge(...args: string[]) {
  return omniforgeIn(dir, ...args);
}

function omniforgeIn(root: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [path.join(root, "bin", "omniforge.mjs"), ...args], { cwd: root, encoding: "utf8", timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** A throw-away project with the real bin and bundler, the repo's packages, and no CLI sources yet. */
function probeProject(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "of-cli-bundle-"));
  fs.mkdirSync(path.join(root, "bin"));
  fs.copyFileSync(path.join(repo, "bin", "omniforge.mjs"), path.join(root, "bin", "omniforge.mjs"));
  fs.mkdirSync(path.join(root, "scripts"));
  for (const f of ["cli-bundle.mjs", "cli-code-cache.mjs"]) fs.copyFileSync(path.join(repo, "scripts", f), path.join(root, "scripts", f));
  fs.symlinkSync(path.join(repo, "node_modules"), path.join(root, "node_modules"));
  write("package.json", JSON.stringify({ name: "bundle-probe", private: true, type: "module" }), root);
  write("package-lock.json", JSON.stringify({ lockfileVersion: 3 }), root);
  write("tsconfig.json", "{}", root);
  return root;
}

const manifest = () => JSON.parse(fs.readFileSync(path.join(dir, "dist", "cli", "manifest.json"), "utf8")) as { builtAt: string; entry: string; inputs: [string, number, number, string][] };

/** An mtime distinct from any recorded so far, whatever the file system's timestamp granularity. */
function bumpMtime(rel: string, seconds: number, root = dir) {
  const t = new Date(Date.now() - 3600_000 + seconds * 1000);
  fs.utimesSync(path.join(root, rel), t, t);
}

beforeAll(() => {
  dir = probeProject();
  write("server/cli/main.ts", 'import { greeting } from "./greeting";\nexport async function main(argv: string[]): Promise<number> {\n  process.stdout.write(`${greeting} ${argv.join(" ")}\\n`);\n  return 0;\n}\n');
  write("server/cli/greeting.ts", 'export const greeting: string = "v1";\n');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the bundled CLI", () => {
  it("is built on the first call and reused while nothing changed", () => {
    expect(omniforge("a")).toEqual({ code: 0, out: "v1 a\n", err: "" });
    const first = manifest();
    expect(first.inputs.map((i) => i[0]).sort()).toEqual(["package-lock.json", "package.json", "scripts/cli-bundle.mjs", "server/cli/greeting.ts", "server/cli/main.ts", "tsconfig.json"]);
    expect(fs.existsSync(path.join(dir, "dist", "cli", first.entry))).toBe(true);
    expect(omniforge("b").out).toBe("v1 b\n");
    expect(manifest().builtAt).toBe(first.builtAt);
  });

  it("never runs a stale bundle: a changed source is rebuilt before the command runs", () => {
    const before = manifest().builtAt;
    write("server/cli/greeting.ts", 'export const greeting: string = "v2, edited";\n');
    bumpMtime("server/cli/greeting.ts", 2);
    expect(omniforge("c").out).toBe("v2, edited c\n");
    expect(manifest().builtAt).not.toBe(before);
  });

  it("a change of the same size with a new mtime is caught by the content hash", () => {
    write("server/cli/greeting.ts", 'export const greeting: string = "v3, edited";\n'); // same length as v2's line
    bumpMtime("server/cli/greeting.ts", 4);
    expect(omniforge("d").out).toBe("v3, edited d\n");
  });

  it("a touched file with the same content only updates the recorded stat (no rebuild)", () => {
    const before = manifest();
    bumpMtime("server/cli/main.ts", 6);
    expect(omniforge("e").out).toBe("v3, edited e\n");
    const after = manifest();
    expect(after.builtAt).toBe(before.builtAt);
    const main = after.inputs.find((i) => i[0] === "server/cli/main.ts")!;
    expect(main[1]).toBe(fs.statSync(path.join(dir, "server/cli/main.ts")).mtimeMs);
  });

  it("a lockfile change (new dependency versions) rebuilds", () => {
    const before = manifest().builtAt;
    write("package-lock.json", JSON.stringify({ lockfileVersion: 3, packages: { "": { name: "bundle-probe" } } }));
    bumpMtime("package-lock.json", 8);
    expect(omniforge("f").out).toBe("v3, edited f\n");
    expect(manifest().builtAt).not.toBe(before);
  });

  it("a source error stops with esbuild's message instead of running the old bundle", () => {
    write("server/cli/greeting.ts", 'export const greeting: string = "v4\n');
    bumpMtime("server/cli/greeting.ts", 10);
    const r = omniforge("g");
    expect(r.code).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toContain("cannot build the CLI");
    expect(r.err).toContain("greeting.ts");
  });
});

describe("the bundled CLI's commands", () => {
  let root: string;
  beforeAll(() => {
    root = probeProject();
    // As main.ts registers commands: a dynamic import each, which the bundle serves from its commands script.
    write("server/cli/main.ts", 'export async function main(argv: string[], io: { build?: string }): Promise<number> {\n  const { text } = await import("./commands/hello");\n  process.stdout.write(`${text} ${argv.join(" ")} ${io.build}\\n`);\n  return 0;\n}\nexport const commandOf = (argv: string[]) => (argv[0] === "hello" ? "hello" : null);\n', root);
    write("server/cli/commands/hello.ts", 'export const text: string = "hi";\n', root);
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it("run from the commands script, with a code cache per command, under a build name that changes with any command's code", () => {
    const first = omniforgeIn(root, "hello");
    expect(first.code).toBe(0);
    const [text, arg, build] = first.out.trim().split(" ");
    expect([text, arg]).toEqual(["hi", "hello"]);
    // What the CLI keeps between runs (a listing's cache) is kept per build: the commands script's name.
    expect(build).toMatch(/^commands-[A-Z0-9]+\.cjs$/);
    expect(fs.readdirSync(path.join(root, "dist", "cli")).filter((f) => f.endsWith(".v8cache"))).toEqual([`${build}.hello.${process.version}-${process.arch}.v8cache`]);
    write("server/cli/commands/hello.ts", 'export const text: string = "hello";\n', root);
    bumpMtime("server/cli/commands/hello.ts", 2, root);
    const second = omniforgeIn(root, "hello").out.trim().split(" ");
    expect(second[0]).toBe("hello");
    expect(second[2]).not.toBe(build);
    // A build keeps the one before it (a process that started just before may still load it), caches included;
    // the one before that goes, its cache with it.
    const caches = () => fs.readdirSync(path.join(root, "dist", "cli")).filter((f) => f.endsWith(".v8cache")).map((f) => f.split(".cjs.")[0] + ".cjs").sort();
    expect(caches()).toEqual([build, second[2]].sort());
    write("server/cli/commands/hello.ts", 'export const text: string = "hey";\n', root);
    bumpMtime("server/cli/commands/hello.ts", 4, root);
    const third = omniforgeIn(root, "hello").out.trim().split(" ");
    expect(third[0]).toBe("hey");
    expect(caches()).toEqual([second[2], third[2]].sort());
  });

  it("a bundle that throws as it loads is named as such, not as a source that failed to build", () => {
    write("server/cli/commands/hello.ts", 'throw new Error("broken at load");\nexport const text: string = "never";\n', root);
    write("server/cli/main.ts", 'import "./commands/hello";\nexport async function main(): Promise<number> {\n  return 0;\n}\n', root);
    bumpMtime("server/cli/main.ts", 6, root);
    const r = omniforgeIn(root, "hello");
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^omniforge: cannot load the CLI bundle dist\/cli\/main-[A-Z0-9]+\.cjs: broken at load\n$/);
  });
});
