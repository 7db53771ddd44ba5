// The proof that the sandbox holds: real bubblewrap, real scripts, the SANDBOX.md probes (a)-(h).
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bubblewrap, cgroups, describeNeeding, isRoot, itNeeding, root as rootUser } from "../../test-support/needs";
import { createSandbox, sandboxSelfTest, type Sandbox } from "./index";

const UID = 65533;

const SECRET = `SECRET-test-${process.pid}`;
let root: string;
let skill: string;
let scratch: string;
let sandbox: Sandbox;

function write(rel: string, text: string, mode = 0o644) {
  const file = path.join(skill, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, { mode });
}

function sandboxProcesses(): string[] {
  const found: string[] = [];
  for (const pid of fs.readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
      const uid = status.match(/^Uid:\s+(\d+)/m)?.[1];
      const state = status.match(/^State:\s+(\S)/m)?.[1];
      if (uid === String(UID) && state !== "Z") found.push(`${pid} ${status.match(/^Name:\s+(.*)$/m)?.[1]}`);
    } catch {
      /* exited meanwhile */
    }
  }
  return found;
}

describeNeeding(bubblewrap(), "sandbox with real bubblewrap", () => {
  beforeAll(async () => {
    process.env.OMNIFORGE_TEST_SERVER_SECRET = SECRET;
    root = fs.mkdtempSync(path.join(os.tmpdir(), "sbx-test-"));
    fs.chmodSync(root, 0o755); // mkdtemp makes 0700; the sandbox uid must reach the skill folder
    skill = path.join(root, "skill");
    scratch = path.join(root, "scratch");
    write("scripts/hello.py", "import sys\nprint('py', sys.argv[1:])\nsys.exit(3)\n");
    write("scripts/hello.sh", 'echo "sh $# $1|$2"\nexit 4\n');
    write("scripts/hello.js", "console.log('js', process.argv.slice(2).join(','));\nprocess.exit(5);\n");
    write("scripts/tool", "#!/usr/bin/env python3\nprint('shebang ok')\n");
    write("references/data.txt", "resource-text\n");
    fs.mkdirSync(scratch, { mode: 0o700 });
    sandbox = createSandbox({ maxConcurrent: 2 });
    await sandbox.status();
  });

  afterAll(async () => {
    delete process.env.OMNIFORGE_TEST_SERVER_SECRET;
    await sandbox?.close();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  const run = (script: string, extra: Record<string, unknown> = {}) =>
    sandbox.run({ skillDir: skill, scratchDir: scratch, script, ...extra });
  const cmd = (command: string, extra: Record<string, unknown> = {}) =>
    sandbox.run({ skillDir: skill, scratchDir: scratch, command, ...extra });

  it("passes the canary and reports its mode", async () => {
    const status = await sandbox.status();
    expect(status.mode, JSON.stringify(status.checks)).toBe(isRoot ? "sandboxed" : "sandboxed-no-cgroup");
    expect(status.checks.find((c) => c.name === "canary")).toMatchObject({ ok: true });
    const again = await sandboxSelfTest();
    expect(again.mode, JSON.stringify(again.checks)).toBe(status.mode);
  });

  it("runs python, bash and node scripts with their stdout, exit code and arguments", async () => {
    const py = await run("scripts/hello.py", { args: ["a b", "$(id)"] });
    expect(py).toMatchObject({ exitCode: 3, stdout: "py ['a b', '$(id)']\n", sandboxed: true, truncated: false, timedOut: false });
    expect(py.command).toEqual(["/usr/bin/python3", "/skill/scripts/hello.py", "a b", "$(id)"]);
    const sh = await run("scripts/hello.sh", { args: ["x; rm -rf /", "y"] });
    expect(sh).toMatchObject({ exitCode: 4, stdout: "sh 2 x; rm -rf /|y\n" });
    const js = await run("scripts/hello.js", { args: ["1", "2"] });
    expect(js).toMatchObject({ exitCode: 5, stdout: "js 1,2\n" });
    const tool = await run("scripts/tool");
    expect(tool).toMatchObject({ exitCode: 0, stdout: "shebang ok\n" });
    expect(tool.command[0]).toBe("/usr/bin/env");
  });

  it("runs a bash command line in /scratch, with stdin", async () => {
    const r = await cmd('echo $((1+2)); pwd; cat; echo "$1"', { args: ["arg1"], stdin: "from-stdin\n" });
    expect(r).toMatchObject({ exitCode: 0, stdout: "3\n/scratch\nfrom-stdin\narg1\n" });
  });

  it("passes the request's own env variables, and refuses bad names", async () => {
    const r = await cmd('echo "$GREETING|$HOME"', { env: { GREETING: "hi there; $(id)" } });
    expect(r.stdout).toBe("hi there; $(id)|/scratch\n");
    const bad = await cmd("true", { env: { "A=B": "x" } });
    expect(bad.refused).toMatch(/not allowed/);
  });

  it("maps a death by signal to 128+N and its name", async () => {
    const r = await cmd("kill -TERM $$");
    expect(r.exitCode).toBe(143);
    expect(r.signal).toBe("SIGTERM");
  });

  it("shows /skill read-only and /scratch writable, owned by the sandbox uid", async () => {
    const r = await cmd(
      "cat /skill/references/data.txt; touch /skill/planted 2>/dev/null && echo skill-writable; echo out > /scratch/made.txt && echo scratch-ok",
    );
    expect(r.stdout).toBe("resource-text\nscratch-ok\n");
    expect(fs.existsSync(path.join(skill, "planted"))).toBe(false);
    const made = fs.statSync(path.join(scratch, "made.txt"));
    if (isRoot) expect(made.uid).toBe(UID);
    const dir = fs.statSync(scratch);
    expect(dir.mode & 0o777).toBe(0o700);
  });

  it("(a) cannot read the host's /etc/passwd, /etc/shadow, /root or the project", async () => {
    const r = await cmd(
      "cat /etc/passwd; cat /etc/shadow 2>&1; ls /root 2>&1; ls /work 2>&1; ls " + JSON.stringify(process.cwd()) + " 2>&1; ls /proc | grep -c '^[0-9]'",
    );
    expect(r.stdout).toContain("sandbox:x:1000:1000");
    expect(r.stdout).not.toContain("root:x:0:0");
    expect(r.stdout).toMatch(/\/etc\/shadow: No such file/);
    expect(r.stdout).toMatch(/\/root.*No such file/);
    expect(r.stdout).toMatch(/\/work.*No such file/);
    const procs = Number(r.stdout.trim().split("\n").pop());
    expect(procs).toBeLessThan(10); // only the sandbox's own PID namespace
  });

  it("(a) cannot see the server's environment, directly or through /proc/*/environ", async () => {
    expect(process.env.OMNIFORGE_TEST_SERVER_SECRET).toBe(SECRET);
    const r = await cmd("env; cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n'; echo done");
    expect(r.stdout).toContain("done");
    expect(r.stdout).toContain("HOME=/scratch");
    expect(r.stdout).not.toContain(SECRET);
    expect(r.stdout).not.toContain("OMNIFORGE_TEST_SERVER_SECRET");
  });

  it("(b) cannot write outside scratch (host /tmp, the skill folder)", async () => {
    const marker = path.join(os.tmpdir(), `sbx-escape-${process.pid}`);
    const r = await cmd(`echo x > ${marker} 2>&1; echo x > /skill/x 2>&1; echo code=$?`);
    expect(r.stdout).toContain("code=1");
    expect(fs.existsSync(marker)).toBe(false);
    expect(fs.existsSync(path.join(skill, "x"))).toBe(false);
  });

  it("(c) cannot connect to a TCP listener on the host's 127.0.0.1", async () => {
    let connections = 0;
    const server = net.createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const r = await cmd(`(echo hi > /dev/tcp/127.0.0.1/${port}) 2>&1 && echo CONNECTED || echo refused`);
      const py = await sandbox.run({
        skillDir: skill,
        scratchDir: scratch,
        command: `python3 -c "import socket; socket.create_connection(('127.0.0.1', ${port}), timeout=2); print('CONNECTED')" 2>&1 | tail -1`,
      });
      expect(r.stdout).toContain("refused");
      expect(r.stdout).not.toContain("CONNECTED");
      expect(py.stdout).toMatch(/ConnectionRefused|Network is unreachable/);
      expect(connections).toBe(0);
    } finally {
      server.close();
    }
  });

  it("(d) stops a fork bomb of 200 processes", async () => {
    write(
      "scripts/fork.py",
      [
        "import os, time",
        "ok = 0",
        "for i in range(200):",
        "    try:",
        "        if os.fork() == 0:",
        "            time.sleep(20); os._exit(0)",
        "        ok += 1",
        "    except OSError:",
        "        pass",
        "print('forked', ok, flush=True)",
      ].join("\n"),
    );
    const r = await run("scripts/fork.py", { limits: { wallMs: 8000 } });
    const forked = Number(r.stdout.match(/forked (\d+)/)?.[1]);
    expect(forked).toBeGreaterThan(0);
    expect(forked).toBeLessThan(64);
    if (isRoot) expect(r.limitsHit).toContain("processes");
  });

  it("(e) refuses a 2 GB allocation", async () => {
    write("scripts/big.py", "try:\n    b = b'\\x01' * 2**31\n    print('ALLOCATED')\nexcept MemoryError:\n    print('MemoryError')\n");
    const r = await run("scripts/big.py");
    expect(r.stdout).not.toContain("ALLOCATED");
    expect(r.stdout).toContain("MemoryError");
  });

  it("(f) kills an endless CPU loop (CPU limit)", async () => {
    const r = await cmd("while :; do :; done", { limits: { cpuSeconds: 1, wallMs: 5000 } });
    expect(r.exitCode === 152 || r.exitCode === 137).toBe(true);
    expect(r.timedOut).toBe(false);
    expect(r.durationMs).toBeLessThan(4000);
  });

  it("(f) kills a sleeping script at the wall-clock limit", async () => {
    const r = await cmd("sleep 30", { limits: { wallMs: 700 } });
    expect(r).toMatchObject({ timedOut: true, exitCode: 137, signal: "SIGKILL" });
    expect(r.stderr).toContain("wall-clock limit");
    expect(r.durationMs).toBeLessThan(3000);
  });

  it("(g) cuts 50 MB of output at the cap, with a marker, quickly", async () => {
    write("scripts/flood.py", "import sys\nchunk = 'x' * 65536\nfor i in range(800):\n    sys.stdout.write(chunk)\n");
    const r = await run("scripts/flood.py");
    expect(r.truncated).toBe(true);
    expect(r.stdout.endsWith("\n[output truncated at 1 MiB]")).toBe(true);
    expect(r.stdout.length).toBe(1024 * 1024 + "\n[output truncated at 1 MiB]".length);
    expect(r.exitCode).toBe(137);
    expect(r.durationMs).toBeLessThan(5000);
  });

  it("caps a single file at the file-size limit", async () => {
    const r = await cmd("head -c 5000000 /dev/zero > /scratch/big.bin; echo code=$?", { limits: { fileBytes: 1024 * 1024 } });
    expect(fs.statSync(path.join(scratch, "big.bin")).size).toBe(1024 * 1024);
    expect(r.stdout).not.toContain("code=0");
  });

  itNeeding(cgroups(), "(h) bounds aggregate memory across children (cgroup)", async () => {
    expect((await sandbox.status()).mode).toBe("sandboxed");
    write(
      "scripts/many.py",
      [
        "import os",
        "kids = []",
        "for i in range(8):",
        "    pid = os.fork()",
        "    if pid == 0:",
        "        b = bytearray(400 * 1000 * 1000)",
        "        for j in range(0, len(b), 4096): b[j] = 1",
        "        os._exit(0)",
        "    kids.append(pid)",
        "ok = sum(1 for p in kids if os.waitpid(p, 0)[1] == 0)",
        "print('survived', ok, flush=True)",
      ].join("\n"),
    );
    const r = await run("scripts/many.py", { limits: { wallMs: 20_000 } });
    const survived = Number(r.stdout.match(/survived (\d+)/)?.[1] ?? "0");
    expect(survived).toBeLessThan(8);
    expect(r.limitsHit).toContain("memory");
  });

  it("refuses path escapes before anything runs", async () => {
    const outside = path.join(root, "outside.sh");
    fs.writeFileSync(outside, `touch ${path.join(root, "ran")}\n`);
    fs.symlinkSync(outside, path.join(skill, "scripts", "link.sh"));
    const refusals: Record<string, string | undefined> = {};
    for (const script of ["../outside.sh", "scripts/../../outside.sh", outside, "/etc/passwd", "scripts/link.sh"]) {
      const r = await run(script);
      refusals[script] = r.refused;
      expect(r.exitCode).toBeNull();
    }
    expect(refusals).toEqual({
      "../outside.sh": 'The script path "../outside.sh" leaves the skill folder ("..")',
      "scripts/../../outside.sh": 'The script path "scripts/../../outside.sh" leaves the skill folder ("..")',
      [outside]: `Script paths are relative to the skill folder; "${outside}" is absolute`,
      "/etc/passwd": 'Script paths are relative to the skill folder; "/etc/passwd" is absolute',
      "scripts/link.sh": 'The script "scripts/link.sh" is a symlink that leaves the skill folder; refused',
    });
    expect((await run("scripts/missing.py")).refused).toMatch(/Script not found: scripts\/missing.py/);
    expect(fs.existsSync(path.join(root, "ran"))).toBe(false);
  });

  it("never takes over a scratch folder that is not empty and not the sandbox's, nor /", async () => {
    const foreign = path.join(root, "foreign");
    fs.mkdirSync(foreign, { mode: 0o755 });
    fs.writeFileSync(path.join(foreign, "keep.txt"), "mine\n");
    const before = fs.statSync(foreign);
    const r = await sandbox.run({ skillDir: skill, scratchDir: foreign, command: "touch /scratch/x" });
    expect(r.refused).toMatch(/refusing to take it over/);
    const after = fs.statSync(foreign);
    expect([after.uid, after.mode]).toEqual([before.uid, before.mode]);
    const normalizedOnly = (bad: string) => `The scratch folder must be a normalized absolute path other than /, got "${bad}"`;
    for (const [bad, refused] of [
      ["/", normalizedOnly("/")],
      [`${root}/a/../b`, normalizedOnly(`${root}/a/../b`)],
      ["relative/scratch", 'The scratch folder must be an absolute path, got "relative/scratch"'],
    ]) {
      expect((await sandbox.run({ skillDir: skill, scratchDir: bad!, command: "true" })).refused, bad).toBe(refused);
    }
    expect((await sandbox.run({ skillDir: "/", scratchDir: scratch, command: "true" })).refused).toMatch(/cannot be \//);
    // Under the configured scratchRoot, a folder the host prepared (with files) is taken over.
    const host = createSandbox({ scratchRoot: root });
    try {
      const ok = await host.run({ skillDir: skill, scratchDir: foreign, command: "cat /scratch/keep.txt; touch /scratch/new" });
      expect(ok).toMatchObject({ exitCode: 0, stdout: "mine\n" });
      if (isRoot) expect(fs.statSync(foreign).uid).toBe(UID);
    } finally {
      await host.close();
    }
  });

  it("keeps its synthetic files in a subfolder of a given runtimeDir", async () => {
    const runtime = path.join(root, "runtime");
    fs.mkdirSync(runtime, { mode: 0o755 });
    fs.writeFileSync(path.join(runtime, "passwd"), "host-file\n");
    const own = createSandbox({ runtimeDir: runtime });
    try {
      expect((await own.status()).mode).toBe((await sandbox.status()).mode);
      expect(fs.readFileSync(path.join(runtime, "passwd"), "utf8")).toBe("host-file\n");
      expect(fs.readFileSync(path.join(runtime, "sandbox", "passwd"), "utf8")).toContain("sandbox:x:1000");
    } finally {
      await own.close();
    }
  });

  it("bind-mounts a readable copy when the skill folder is private (0700)", async () => {
    const priv = path.join(root, "private-skill");
    fs.mkdirSync(path.join(priv, "scripts"), { recursive: true, mode: 0o700 });
    fs.chmodSync(priv, 0o700);
    fs.writeFileSync(path.join(priv, "scripts", "s.sh"), "cat /skill/secret.txt\n", { mode: 0o600 });
    fs.writeFileSync(path.join(priv, "secret.txt"), "private-but-ok\n", { mode: 0o600 });
    const r = await sandbox.run({ skillDir: priv, scratchDir: scratch, script: "scripts/s.sh" });
    expect(r).toMatchObject({ exitCode: 0, stdout: "private-but-ok\n" });
    expect(fs.statSync(priv).mode & 0o777).toBe(0o700); // the original keeps its permissions
  });

  itNeeding(rootUser(), "binds a scratch folder inside a private (0700) home for the run only; the home stays private", async () => {
    const home = fs.mkdtempSync(path.join(root, "home-")); // 0700, as ~/.omniforge
    const inner = path.join(home, "scratch", "session-1");
    fs.mkdirSync(inner, { recursive: true, mode: 0o700 });
    expect((await sandbox.status()).checks.find((c) => c.name === "private-bind")).toMatchObject({ ok: true });
    const r = await sandbox.run({ skillDir: skill, scratchDir: inner, command: "echo kept > out.txt; id -u; pwd" });
    expect(r).toMatchObject({ exitCode: 0, stdout: "1000\n/scratch\n", sandboxed: true });
    expect(fs.readFileSync(path.join(inner, "out.txt"), "utf8")).toBe("kept\n");
    expect(fs.statSync(inner).uid).toBe(UID);
    expect(fs.statSync(home).mode & 0o777).toBe(0o700);
    // The bind lived in the run's own mount namespace: nothing on the host, and its mount point is gone.
    expect(fs.readFileSync("/proc/self/mountinfo", "utf8")).not.toContain(inner);
    const again = await sandbox.run({ skillDir: skill, scratchDir: inner, command: "cat out.txt" });
    expect(again).toMatchObject({ exitCode: 0, stdout: "kept\n" });
  });

  itNeeding(rootUser(), "without private binds, a scratch folder in a private home is refused with what to do", async () => {
    const home = fs.mkdtempSync(path.join(root, "home-"));
    const inner = path.join(home, "scratch", "s");
    fs.mkdirSync(path.join(home, "scratch"), { mode: 0o755 }); // as ensureDataHome leaves it: only the home is private
    fs.mkdirSync(inner, { mode: 0o700 });
    const noBind = createSandbox({ mountPath: path.join(root, "no-such-mount") });
    try {
      const status = await noBind.status();
      expect(status.checks.find((c) => c.name === "private-bind")).toMatchObject({ ok: false });
      expect(status.mode).toBe((await sandbox.status()).mode); // other runs are unaffected
      const r = await noBind.run({ skillDir: skill, scratchDir: inner, command: "true" });
      expect(r.refused).toContain(`The sandbox user cannot reach the scratch folder: ${home} is private`);
      expect(r.refused).toContain(`chmod o+x ${home}`);
      expect((await noBind.run({ skillDir: skill, scratchDir: scratch, command: "echo reachable" })).stdout).toBe("reachable\n");
    } finally {
      await noBind.close();
    }
  });

  it("two runners in one process run side by side (no shared cgroup names)", async () => {
    const other = createSandbox();
    try {
      await other.status();
      const results = await Promise.all([1, 2, 3].flatMap(() => [cmd("echo a"), other.run({ skillDir: skill, scratchDir: scratch, command: "echo b" })]));
      expect(results.map((r) => r.refused ?? r.stdout)).toEqual(["a\n", "b\n", "a\n", "b\n", "a\n", "b\n"]);
    } finally {
      await other.close();
    }
  });

  it("queues runs above the concurrency limit and honours cancellation", async () => {
    const one = createSandbox({ maxConcurrent: 1 });
    try {
      await one.status();
      const first = one.run({ skillDir: skill, scratchDir: scratch, command: "sleep 0.6" });
      const second = one.run({ skillDir: skill, scratchDir: scratch, command: "echo second" });
      await new Promise((r) => setTimeout(r, 100));
      expect(one.queueLength()).toBe(1);
      const [a, b] = await Promise.all([first, second]);
      expect(a.exitCode).toBe(0);
      expect(b.stdout).toBe("second\n");
      expect(b.queuedMs).toBeGreaterThan(300);

      const controller = new AbortController();
      const started = Date.now();
      const pending = one.run({ skillDir: skill, scratchDir: scratch, command: "sleep 20", signal: controller.signal });
      setTimeout(() => controller.abort(), 300);
      const c = await pending;
      expect(c.cancelled).toBe(true);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await one.close();
    }
  });

  it("measures the per-run overhead of `bash -c :`", async () => {
    const times: number[] = [];
    for (let i = 0; i < 22; i++) {
      const t = performance.now();
      const r = await cmd(":");
      times.push(performance.now() - t);
      expect(r.exitCode).toBe(0);
    }
    const sorted = times.slice(2).sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    console.log(`[sandbox.test] per-run overhead of bash -c : median ${median.toFixed(1)} ms (min ${sorted[0]!.toFixed(1)}, max ${sorted.at(-1)!.toFixed(1)}, n=${sorted.length})`);
    expect(median).toBeLessThan(1000);
  });

  it("leaves no process of the sandbox uid behind", async () => {
    let left = sandboxProcesses();
    for (let i = 0; i < 30 && left.length > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      left = sandboxProcesses();
    }
    expect(left).toEqual([]);
  });
});

describe("sandbox refusal when no sandbox is available", () => {
  it("refuses every run with a clear message when bwrap is missing", async () => {
    const sb = createSandbox({ bwrapPath: "/nonexistent/bwrap" });
    try {
      const status = await sb.status();
      expect(status.mode).toBe("unavailable");
      expect(status.detail).toContain("Script execution is disabled");
      expect(status.detail).toContain("bwrap not found at /nonexistent/bwrap");
      expect(status.detail).toContain("apt-get install bubblewrap");
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sbx-refuse-"));
      try {
        const r = await sb.run({ skillDir: dir, scratchDir: path.join(dir, "scratch"), command: `touch ${dir}/ran` });
        expect(r.refused).toContain("Script execution is disabled");
        expect(r.exitCode).toBeNull();
        expect(fs.existsSync(path.join(dir, "ran"))).toBe(false);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    } finally {
      await sb.close();
    }
  });

  it.skipIf(!fs.existsSync("/usr/bin/prlimit"))("runs unsandboxed only with the explicit unsafe option, still with a minimal env and limits", async () => {
    process.env.OMNIFORGE_TEST_SERVER_SECRET = SECRET;
    const sb = createSandbox({ bwrapPath: "/nonexistent/bwrap", unsafe: true });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sbx-unsafe-"));
    fs.chmodSync(dir, 0o755);
    try {
      expect((await sb.status()).mode).toBe("unsafe");
      const r = await sb.run({ skillDir: dir, scratchDir: path.join(dir, "scratch"), command: "env; id -u; ulimit -u", env: { EXTRA: "yes" } });
      expect(r.sandboxed).toBe(false);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).not.toContain(SECRET);
      expect(r.stdout).toContain("EXTRA=yes");
      const lines = r.stdout.trim().split("\n");
      if (isRoot) expect(lines.at(-2)).toBe(String(UID));
      expect(Number(lines.at(-1))).toBeLessThanOrEqual(64);
      const slow = await sb.run({ skillDir: dir, scratchDir: path.join(dir, "scratch"), command: "sleep 20 & sleep 20", limits: { wallMs: 500 } });
      expect(slow.timedOut).toBe(true);
    } finally {
      delete process.env.OMNIFORGE_TEST_SERVER_SECRET;
      await sb.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
