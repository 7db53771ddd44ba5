// Issue 37 item 12: the README's first command is all a newcomer runs, on a machine whose node may be older than
// the 22.12 the packages declare (Debian 12 ships 20, and npm then prints an EBADENGINE warning per package). That
// command must put Node 22 on the PATH itself, as .ci/run does, before npm install runs.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..");

/** The first line of the README's Quick start block. */
function firstCommand(): string {
  const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
  const block = /## Quick start\s+```sh\n([^\n]+)\n/.exec(readme);
  expect(block, "README.md has a Quick start sh block").not.toBeNull();
  return block![1]!;
}

describe("the README's first command", () => {
  it("runs npm install under Node 22 where the machine's node is older", () => {
    const cmd = firstCommand();
    expect(cmd).toMatch(/npm install/);
    // An older node first on the PATH: a stand-in that says v20, as Debian 12's would.
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-quick-start-"));
    try {
      const old = path.join(scratch, "old-bin");
      fs.mkdirSync(old);
      fs.writeFileSync(path.join(old, "node"), '#!/bin/sh\n[ "$1" = --version ] && echo v20.20.2 && exit 0\nexit 1\n', { mode: 0o755 });
      // The Node 22 this test runs under stands for the one the command would fetch (no network here).
      const version = process.versions.node;
      const arch = process.arch === "x64" ? "x64" : process.arch;
      const cacheDir = path.join(scratch, "cache", "omniforge-ci");
      const script = fs.readFileSync(path.join(root, "scripts", "use-node22.sh"), "utf8");
      const pinned = /OMNIFORGE_NODE_VERSION=(\S+)/.exec(script)?.[1];
      fs.mkdirSync(cacheDir, { recursive: true });
      fs.symlinkSync(path.dirname(path.dirname(process.execPath)), path.join(cacheDir, `node-${pinned}-linux-${arch}`));
      // npm install is what would warn: the command's own npm calls report the node they would run under.
      const probe = cmd.replace(/npm install.*$/, 'node --version');
      const out = execFileSync("sh", ["-c", probe], {
        cwd: root,
        encoding: "utf8",
        env: { NODE_ENV: "test", PATH: `${old}:/usr/bin:/bin`, HOME: scratch, XDG_CACHE_HOME: path.join(scratch, "cache") },
        stdio: ["ignore", "pipe", "pipe"],
      });
      expect(out.trim()).toBe(`v${version}`);
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });
});
