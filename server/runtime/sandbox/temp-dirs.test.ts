import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { removeOwnSandboxDirs, sandboxDirPrefix, sandboxTempRoot, sweepStaleSandboxDirs } from "./temp-dirs";

const repo = path.resolve(import.meta.dirname, "../../..");
let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-tmpdirs-test-"));
  fs.chmodSync(tmp, 0o755); // a TMPDIR the sandbox user can pass through (a private one is passed over for /tmp)
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The pid of a process that has exited (so nothing owns folders named after it). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(r.stdout);
}

describe("sandbox folders in the temp folder", () => {
  it("go in TMPDIR when other users can pass through it, else in a shared temp folder like /tmp", () => {
    const open = path.join(tmp, "open");
    const closed = path.join(tmp, "closed");
    const shared = path.join(tmp, "shared");
    const notSticky = path.join(tmp, "not-sticky");
    fs.mkdirSync(open, { mode: 0o755 });
    fs.mkdirSync(closed, { mode: 0o700 });
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o1777);
    fs.mkdirSync(notSticky);
    fs.chmodSync(notSticky, 0o777);
    expect(sandboxTempRoot(open, shared)).toBe(open);
    expect(sandboxTempRoot(closed, shared)).toBe(shared);
    expect(sandboxTempRoot(path.join(closed, "inside"), shared)).toBe(shared);
    // No shared folder to go to: TMPDIR stays, and the sandbox's self-test says what to fix.
    expect(sandboxTempRoot(closed, notSticky)).toBe(closed);
    expect(sandboxTempRoot(closed, path.join(tmp, "missing"))).toBe(closed);
  });

  it("a start sweeps folders whose owning process is gone and keeps live ones", () => {
    const stale = fs.mkdtempSync(sandboxDirPrefix(deadPid(), tmp));
    fs.mkdirSync(path.join(stale, "mnt", "run-1"), { recursive: true });
    const mine = fs.mkdtempSync(sandboxDirPrefix(process.pid, tmp));
    const parents = fs.mkdtempSync(sandboxDirPrefix(process.ppid, tmp));
    const unrelated = fs.mkdtempSync(path.join(tmp, "omniforge-sandbox-notapid-"));

    expect(sweepStaleSandboxDirs(tmp)).toEqual([stale]);
    expect(fs.existsSync(stale)).toBe(false);
    for (const kept of [mine, parents, unrelated]) expect(fs.existsSync(kept)).toBe(true);

    expect(removeOwnSandboxDirs(process.pid, tmp)).toEqual([mine]);
    expect(fs.existsSync(parents)).toBe(true);
  });

  it("a server stopped with SIGTERM removes the sandbox folder it made", async () => {
    const script = path.join(tmp, "server.ts");
    fs.writeFileSync(
      script,
      `import { createSandbox } from ${JSON.stringify(path.join(repo, "server/runtime/sandbox/index.ts"))};
import { removeOwnSandboxDirs } from ${JSON.stringify(path.join(repo, "server/runtime/sandbox/temp-dirs.ts"))};
import { onShutdown } from ${JSON.stringify(path.join(repo, "server/http/shutdown.ts"))};
const sandbox = createSandbox();
// As scripts/serve.ts: the runners live in route modules, so the server removes by the pid in the name.
onShutdown(() => { removeOwnSandboxDirs(); }, () => removeOwnSandboxDirs());
void sandbox;
console.log("ready " + process.pid);
setInterval(() => {}, 1000);
`,
    );
    // Node itself with tsx's loader (not the tsx command, which relays signals through a second process): the
    // SIGTERM reaches the server's own handler, as it does under scripts/serve.ts.
    const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: repo, env: { ...process.env, TMPDIR: tmp }, stdio: ["ignore", "pipe", "inherit"] });
    const dir = await new Promise<string>((ok, fail) => {
      let out = "";
      child.stdout.on("data", (b: Buffer) => {
        out += b.toString();
        const m = /ready (\d+)/.exec(out);
        const mine = m && fs.readdirSync(tmp).find((n) => n.startsWith(`omniforge-sandbox-${m[1]}-`));
        if (mine) ok(path.join(tmp, mine));
      });
      child.on("exit", () => fail(new Error(`exited early: ${out}`)));
    });
    expect(path.dirname(dir)).toBe(tmp);
    expect(fs.existsSync(dir)).toBe(true);
    const exited = new Promise<number | null>((ok) => child.on("exit", (code) => ok(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(fs.existsSync(dir)).toBe(false);
  });
});
