// A request's workdir (run_script's spec 004 `workdir`): the sandbox starts the script there, and checks again,
// whatever its caller checked, that the folder is really inside the scratch folder.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { bubblewrap, describeNeeding } from "../../test-support/needs";
import { createSandbox, DEFAULT_SANDBOX_GID, DEFAULT_SANDBOX_UID, type Sandbox } from "./index";

describeNeeding(bubblewrap(), "workdir in the sandbox", () => {
  let root: string;
  let skill: string;
  let scratch: string;
  let sandbox: Sandbox;

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "sbx-workdir-"));
    fs.chmodSync(root, 0o755);
    skill = path.join(root, "skill");
    scratch = path.join(root, "scratch");
    fs.mkdirSync(path.join(skill, "scripts"), { recursive: true });
    fs.writeFileSync(path.join(skill, "scripts", "where.sh"), "pwd; ls\n");
    fs.mkdirSync(path.join(scratch, "out", "deep"), { recursive: true });
    fs.writeFileSync(path.join(scratch, "out", "deep", "here.txt"), "x");
    fs.mkdirSync(path.join(root, "outside"));
    fs.symlinkSync(path.join(root, "outside"), path.join(scratch, "escape"));
    if (process.getuid?.() === 0) fs.chownSync(scratch, DEFAULT_SANDBOX_UID, DEFAULT_SANDBOX_GID);
    sandbox = createSandbox();
    await sandbox.status();
  });
  afterAll(async () => {
    await sandbox?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("starts the script in the workdir below /scratch", async () => {
    const r = await sandbox.run({ skillDir: skill, scratchDir: scratch, script: "scripts/where.sh", workdir: "out/deep" });
    expect(r.refused).toBeUndefined();
    expect(r.stdout).toBe("/scratch/out/deep\nhere.txt\n");
  });

  it("refuses a workdir that leaves the scratch folder, by spelling or through a symlink, or does not exist", async () => {
    for (const [workdir, why] of [
      ["..", /not a folder inside the scratch folder/],
      ["escape", /not a folder inside the scratch folder/],
      ["/tmp", /relative to the scratch folder/],
      ["nope", /does not exist in the scratch folder/],
    ] as const) {
      const r = await sandbox.run({ skillDir: skill, scratchDir: scratch, script: "scripts/where.sh", workdir });
      expect(r.refused, workdir).toMatch(why);
      expect(r.stdout).toBe("");
    }
  });
});
