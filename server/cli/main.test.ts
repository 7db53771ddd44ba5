// The top level of the command line as a person meets it: help that pipes, a wrong command that says so, an
// unexpected failure in one line.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { errorLine } from "./error-line";
import type { CliIO } from "./io";
import { main } from "./main";

const repo = path.resolve(import.meta.dirname, "../..");

async function omniforge(...argv: string[]) {
  let out = "";
  let err = "";
  const io: CliIO = { out: (t) => void (out += t), err: (t) => void (err += t), env: {}, cwd: process.cwd() };
  const code = await main(argv, io);
  return { code, out, err };
}

describe("omniforge", () => {
  it.each([["--help"], ["-h"], ["help"], []])("%s lists the commands on stdout, exit 0", async (...argv) => {
    const r = await omniforge(...argv.filter(Boolean));
    expect(r).toMatchObject({ code: 0, err: "" });
    expect(r.out).toContain("usage: omniforge <group> <command> [options]");
    expect(r.out).toContain("  omniforge skill validate\n");
  });

  it("an unknown command is an error on stderr with the list, exit 2", async () => {
    const r = await omniforge("skill", "frobnicate");
    expect(r).toMatchObject({ code: 2, out: "" });
    expect(r.err).toMatch(/^omniforge: unknown command "skill frobnicate"\nusage: /);
  });

  it("a mistyped command gets the one it is nearest to, and what was typed is printed as inert text", async () => {
    expect((await omniforge("skil", "list", "--json")).err.split("\n")[0]).toBe('omniforge: unknown command "skil list --json": did you mean "omniforge skill list"?');
    expect((await omniforge("sycn", "--dry-run")).err.split("\n")[0]).toBe('omniforge: unknown command "sycn --dry-run": did you mean "omniforge sync"?');
    const r = await omniforge("skill", "\u001b[2Jlist");
    expect(r.code).toBe(2);
    expect(r.err.split("\n")[0]).toBe('omniforge: unknown command "skill \\u001b[2Jlist"');
  });

  it("--version prints the package version", async () => {
    expect((await omniforge("--version")).out).toMatch(/^omniforge \d+\.\d+\.\d+\n$/);
  });
});

// What no command expected, through the real bin in a private HOME: a temporary folder that does not exist makes
// `agent run`'s scratch folder fail. It printed Node's stack trace; now one line, and the stack when asked for.
describe("an error no command expected", () => {
  const run = (env: Record<string, string>) => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-main-"));
    try {
      return spawnSync(process.execPath, [path.join(repo, "bin/omniforge.mjs"), "agent", "run", "hello", "--home", home, "--project", home], {
        cwd: home,
        encoding: "utf8",
        env: { ...process.env, HOME: home, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "", OMNIFORGE_PROVIDER: "", OMNIFORGE_DEBUG: "", TMPDIR: path.join(home, "no-such-tmp"), ...env },
        timeout: 60_000,
      });
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  };

  it("is one line naming the command and what failed, exit 1", () => {
    const r = run({});
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^omniforge agent run: cannot mkdtemp \S+no-such-tmp\/omniforge-agent-scratch-XXXXXX: no such file or directory \(ENOENT\)\n$/);
  });

  it("shows where it happened with OMNIFORGE_DEBUG=1", () => {
    const r = run({ OMNIFORGE_DEBUG: "1" });
    expect(r.status).toBe(1);
    const lines = r.stderr.split("\n");
    expect(lines[0]).toMatch(/^omniforge agent run: cannot mkdtemp /);
    expect(lines[1]).toMatch(/^Error: ENOENT: /);
    expect(lines[2]).toMatch(/^\s+at /);
  });
});

describe("errorLine", () => {
  it("says what could not be done to which path and why; other messages become one inert line", () => {
    const e = Object.assign(new Error("EACCES: permission denied, mkdir '/p/x'"), { code: "EACCES", syscall: "mkdir", path: "/p/x" });
    expect(errorLine(e)).toBe("cannot mkdir /p/x: permission denied (EACCES)");
    expect(errorLine(new Error("first\n  second\u001b[31m"))).toBe("first second\\u001b[31m");
    expect(errorLine("plain")).toBe("plain");
  });
});
