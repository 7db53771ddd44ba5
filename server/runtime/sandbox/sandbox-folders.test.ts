// The sandbox and its folders, with real bubblewrap: script paths that leave the skill, scratch folders it must not
// take over, its own runtime files, and skill or scratch folders that are private to their owner.
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { bubblewrap, describeNeeding, isRoot, itNeeding, root as rootUser } from "../../test-support/needs";
import { createSandbox } from "./index";
import { UID, root, run, sandbox, scratch, skill, useSandboxFolder } from "./test-support/sandbox";

describeNeeding(bubblewrap(), "sandbox folders with real bubblewrap", () => {
  useSandboxFolder();

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

  itNeeding(rootUser(), "binds a readable skill folder inside a private (0700) home as it is; copies it only without private binds", async () => {
    const home = fs.mkdtempSync(path.join(root, "home-")); // 0700, as ~/.omniforge
    const inHome = path.join(home, "skills", "notes");
    fs.mkdirSync(inHome, { recursive: true, mode: 0o755 });
    // Readable by others but with a mode a copy would not keep (copies are 0644).
    fs.writeFileSync(path.join(inHome, "notes.md"), "from the home\n", { mode: 0o604 });
    const probe = "cat /skill/notes.md; stat -c %a /skill/notes.md";
    const bound = await sandbox.run({ skillDir: inHome, scratchDir: scratch, command: probe });
    expect(bound).toMatchObject({ exitCode: 0, stdout: "from the home\n604\n", sandboxed: true });
    expect(fs.readFileSync("/proc/self/mountinfo", "utf8")).not.toContain(inHome);
    const noBind = createSandbox({ mountPath: path.join(root, "no-such-mount") });
    try {
      const copied = await noBind.run({ skillDir: inHome, scratchDir: scratch, command: probe });
      expect(copied).toMatchObject({ exitCode: 0, stdout: "from the home\n644\n" });
    } finally {
      await noBind.close();
    }
    expect(fs.statSync(home).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(inHome, "notes.md")).mode & 0o777).toBe(0o604);
  });

  itNeeding(rootUser(), "a run refused after its folders were bound or copied leaves nothing in the runtime folder", async () => {
    const home = fs.mkdtempSync(path.join(root, "home-")); // 0700: the scratch folder is bound for the run
    const inner = path.join(home, "scratch");
    fs.mkdirSync(inner, { mode: 0o700 });
    const big = path.join(root, "big-skill");
    fs.mkdirSync(big, { mode: 0o755 });
    fs.writeFileSync(path.join(big, "SKILL.md"), "---\nname: big\n---\n", { mode: 0o600 }); // unreadable: copied
    fs.writeFileSync(path.join(big, "data.bin"), "");
    fs.truncateSync(path.join(big, "data.bin"), 65 * 1024 * 1024); // sparse, over the copy's limit
    const runtime = path.join(root, "runtime-refused");
    fs.mkdirSync(runtime, { mode: 0o755 });
    const own = createSandbox({ runtimeDir: runtime });
    try {
      const r = await own.run({ skillDir: big, scratchDir: inner, command: "true" });
      expect(r.refused).toMatch(/too large to copy/);
      const made = (sub: string) => (fs.existsSync(path.join(runtime, "sandbox", sub)) ? fs.readdirSync(path.join(runtime, "sandbox", sub)) : []);
      expect(made("mnt")).toEqual([]);
      expect(made("copies")).toEqual([]);
    } finally {
      await own.close();
    }
  });

  itNeeding(rootUser(), "a private TMPDIR (0700, as pam_tmpdir's) does not stop scripts: the runtime folder goes in /tmp", async () => {
    const privateTmp = fs.mkdtempSync(path.join(root, "tmpdir-")); // mkdtemp: 0700
    const before = process.env.TMPDIR;
    process.env.TMPDIR = privateTmp;
    let own: ReturnType<typeof createSandbox> | undefined;
    try {
      own = createSandbox();
      expect((await own.status()).mode).toBe((await sandbox.status()).mode);
      const r = await own.run({ skillDir: skill, scratchDir: scratch, command: "echo ran; touch /scratch/made" });
      expect(r).toMatchObject({ exitCode: 0, stdout: "ran\n" });
      expect(fs.existsSync(path.join(scratch, "made"))).toBe(true);
      expect(fs.readdirSync(privateTmp)).toEqual([]);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      await own?.close();
    }
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
});
