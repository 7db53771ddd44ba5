// `omniforge policy` through the real bin on a console's data home: changes land in the console's policy and its
// audit chain; an import is checked whole and a wrong file changes nothing.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readStoredPolicy } from "../../services/policy/store";
import { skillMd, writeSkillOnDisk } from "../../services/skills/test-support/skills";
import { useSkillsTestHome } from "../../test-support/test-home";

const repo = path.resolve(import.meta.dirname, "../../..");
const h = useSkillsTestHome({ once: true });

function omniforge(...args: string[]) {
  const r = spawnSync(process.execPath, [path.join(repo, "bin/omniforge.mjs"), "policy", ...args, "--home", h.dataHome.home], {
    cwd: h.dir,
    encoding: "utf8",
    env: { ...process.env, OMNIFORGE_HOME: "" },
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
const policyEvents = () =>
  h.db.$client.prepare(`SELECT actor_id AS actor, skill, details FROM audit_events WHERE type = 'policy_changed' ORDER BY id`).all() as { actor: string; skill: string | null; details: string }[];

describe("omniforge policy", () => {
  it("block and unblock change the console's policy, audited as from the console with the reason", async () => {
    const r = omniforge("block", "shady-tool", "--reason", "ticket SEC-12");
    expect(r).toMatchObject({ code: 0, out: "shady-tool: blocked\n" });
    expect((await readStoredPolicy(h.db)).blockedNames).toEqual(["shady-tool"]);
    const e = policyEvents().at(-1)!;
    expect(e).toMatchObject({ actor: "cli", skill: "shady-tool" });
    expect(JSON.parse(e.details).change).toMatchObject({ op: "block", name: "shady-tool", reason: "ticket SEC-12" });
    expect(omniforge("list").out).toContain("blocked names: shady-tool\n");
    expect(JSON.parse(omniforge("list", "--json").out)).toMatchObject({ blockedNames: ["shady-tool"] });
    expect(omniforge("unblock", "shady-tool").out).toBe("shady-tool: unblocked\n");
    expect((await readStoredPolicy(h.db)).blockedNames).toEqual([]);
  });

  it("any name a skill loads with can be blocked (spaces, accents, dots), and the CLI's own listing then says blocked", () => {
    const project = path.join(h.dataHome.projectRoot, ".omniforge", "skills");
    writeSkillOnDisk(path.join(project, "cafe"), { "SKILL.md": skillMd("café", "Cafe notes. Use when asked about the cafe.") });
    writeSkillOnDisk(path.join(project, "dots"), { "SKILL.md": skillMd("../../etc", "Dots. Use when testing odd names.") });
    try {
      const list = () => {
        const r = spawnSync(process.execPath, [path.join(repo, "bin/omniforge.mjs"), "skill", "list", "--json", "--home", h.dataHome.home, "--project", h.dataHome.projectRoot], {
          cwd: h.dir, encoding: "utf8", env: { ...process.env, OMNIFORGE_HOME: "", HOME: h.dir, OMNIFORGE_CACHE_DIR: "off" }, timeout: 60_000,
        });
        return new Map((JSON.parse(r.stdout) as { name: string; status: string }[]).map((s) => [s.name, s.status]));
      };
      expect([list().get("café"), list().get("../../etc")]).toEqual(["active", "active"]);
      expect(omniforge("block", "café")).toMatchObject({ code: 0 });
      expect(omniforge("block", "../../etc")).toMatchObject({ code: 0 });
      expect([list().get("café"), list().get("../../etc")]).toEqual(["blocked", "blocked"]);
      expect(omniforge("block", "   ")).toMatchObject({ code: 1, err: expect.stringContaining("a skill name is 1 to 1024 characters") });
    } finally {
      omniforge("unblock", "café");
      omniforge("unblock", "../../etc");
      fs.rmSync(path.join(project, "cafe"), { recursive: true });
      fs.rmSync(path.join(project, "dots"), { recursive: true });
    }
  });

  it("export and import round-trip; a file with any wrong entry is refused whole, naming each problem", async () => {
    omniforge("block", "old-skill");
    const file = path.join(h.dir, "policy.yaml");
    expect(omniforge("export", file).code).toBe(0);
    expect(fs.readFileSync(file, "utf8")).toContain("blockedNames:\n  - old-skill\n");

    fs.writeFileSync(file, "blockedNames: [fine-name, '  ']\ndisabled:\n  - { name: pdf, layer: moon }\nforbiddenNamePatterns: ['/(/']\nrequireApprovalForScripts: maybe\ncolour: blue\n");
    const bad = omniforge("import", file);
    expect(bad.code).toBe(1);
    for (const p of ["blockedNames[1]", "disabled[0]: unknown layer", "forbiddenNamePatterns[0]", "requireApprovalForScripts: must be true or false", "colour: unknown field"]) expect(bad.err).toContain(p);
    expect((await readStoredPolicy(h.db)).blockedNames).toEqual(["old-skill"]); // nothing changed

    fs.writeFileSync(file, "blockedNames: [new-skill]\nallowlist: [pdf-tools, new-skill]\nrequireApprovalForScripts: true\n");
    expect(omniforge("import", file)).toMatchObject({ code: 0, out: "policy replaced from " + file + "\n" });
    expect(await readStoredPolicy(h.db)).toMatchObject({ blockedNames: ["new-skill"], allowlist: ["new-skill", "pdf-tools"], requireApprovalForScripts: true });
    expect(JSON.parse(policyEvents().at(-1)!.details)).toMatchObject({ change: { op: "import" }, changed: true });
  });

  it("allowReservedNames: imported, listed, and the CLI's own listing under the console's policy calls claude-helper no error", () => {
    const dir = path.join(h.dataHome.projectRoot, ".omniforge", "skills", "claude-helper");
    writeSkillOnDisk(dir, { "SKILL.md": skillMd("claude-helper", "Helps with drafts. Use when drafting.") });
    const file = path.join(h.dir, "reserved.yaml");
    const helper = () => {
      const r = spawnSync(process.execPath, [path.join(repo, "bin/omniforge.mjs"), "skill", "list", "--json", "--home", h.dataHome.home, "--project", h.dataHome.projectRoot], {
        cwd: h.dir, encoding: "utf8", env: { ...process.env, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "", HOME: h.dir }, timeout: 60_000,
      });
      const row = (JSON.parse(r.stdout) as { name: string; valid: boolean; errorCount: number; diagnostics: { code: string }[] }[]).find((x) => x.name === "claude-helper")!;
      return { valid: row.valid, errorCount: row.errorCount, reserved: row.diagnostics.some((d) => d.code === "name.reserved") };
    };
    try {
      expect(omniforge("list").out).toContain("reserved words in names (claude, anthropic, gemini, openai, infer): an error under the omniforge rules\n");
      expect(helper()).toEqual({ valid: false, errorCount: 1, reserved: true });
      fs.writeFileSync(file, "allowReservedNames: true\n");
      expect(omniforge("import", file).code).toBe(0);
      expect(omniforge("list").out).toContain("reserved words in names (claude, anthropic, gemini, openai, infer): allowed\n");
      expect(JSON.parse(policyEvents().at(-1)!.details)).toMatchObject({ change: { op: "import" }, after: { allowReservedNames: true } });
      // The listing cache holds the validator's verdict; the policy is applied as the listing is written.
      expect(helper()).toEqual({ valid: true, errorCount: 0, reserved: false });
      fs.writeFileSync(file, "allowReservedNames: maybe\n");
      expect(omniforge("import", file)).toMatchObject({ code: 1, err: expect.stringContaining("allowReservedNames: must be true or false") });
    } finally {
      fs.writeFileSync(file, "{}\n");
      omniforge("import", file);
      fs.rmSync(dir, { recursive: true });
    }
  });

  it("a forbidden pattern that makes RegExp backtrack cannot hang a listing: any author picks the name it is matched on", () => {
    const file = path.join(h.dir, "redos.yaml");
    fs.writeFileSync(file, 'forbiddenNamePatterns: ["/^(a+)+$/", "/^b{3}-/"]\n');
    expect(omniforge("import", file).code).toBe(0);
    const long = `${"a".repeat(33)}-x`;
    for (const name of [long, "bbb-tool"]) writeSkillOnDisk(path.join(h.dataHome.projectRoot, ".omniforge", "skills", name), { "SKILL.md": skillMd(name) });
    // Before the fix this listing ran for minutes of CPU; the timeout ends it well before.
    const r = spawnSync(process.execPath, [path.join(repo, "bin/omniforge.mjs"), "skill", "list", "--json", "--home", h.dataHome.home, "--project", h.dataHome.projectRoot], {
      cwd: h.dir,
      encoding: "utf8",
      env: { ...process.env, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "" },
      timeout: 20_000,
    });
    expect(r.status).toBe(0);
    const rows = JSON.parse(r.stdout) as { name: string; status: string }[];
    expect(rows.find((x) => x.name === long)?.status).toBe("active");
    expect(rows.find((x) => x.name === "bbb-tool")?.status).toBe("blocked");
  });

  it("without a console database it says where it looked; a --home that is no folder is refused; `omniforge policy` lists the group", () => {
    const empty = fs.mkdtempSync(path.join(h.dir, "empty-home-"));
    const r = spawnSync(process.execPath, [path.join(repo, "bin/omniforge.mjs"), "policy", "list", "--home", empty], { encoding: "utf8" });
    expect(r.status).toBe(1);
    // `npm start` keeps its data in the clone's .omniforge-data, not the CLI's ~/.omniforge: "start the console once"
    // sent people to start a console that had been running all along.
    expect(r.stderr).toBe(
      `omniforge policy list: no console database at ${path.join(empty, "console.db")}: the console keeps it in its data home ` +
        "(OMNIFORGE_HOME; .omniforge-data in the console's clone by default), not the command line's: pass that folder as --home or OMNIFORGE_HOME\n",
    );
    // A typo in --home was the same "no console database"; it is a wrong argument, said in one line.
    const nowhere = spawnSync(process.execPath, [path.join(repo, "bin/omniforge.mjs"), "policy", "list", "--home", path.join(h.dir, "nowhere")], { encoding: "utf8" });
    expect([nowhere.status, nowhere.stderr]).toEqual([2, `omniforge policy list: --home ${path.join(h.dir, "nowhere")}: not a folder\n`]);
    const g = spawnSync(process.execPath, [path.join(repo, "bin/omniforge.mjs"), "policy"], { encoding: "utf8" });
    expect(g.status).toBe(0);
    expect(g.stdout).toMatch(/omniforge policy import\s+Replace the policy/);
  });

  it("names and paths with terminal escapes are shown as text, never obeyed", () => {
    const red = "\u001b[31mred\u001b]0;owned\u0007";
    const un = omniforge("unblock", red);
    expect(un.out).toBe("\\u001b[31mred\\u001b]0;owned\\u0007: was not blocked\n");
    const file = path.join(h.dir, "\u001b[2Jpolicy.yaml");
    fs.writeFileSync(file, "blockedNames: [escaped-one]\n");
    const r = omniforge("import", file);
    expect(r.code).toBe(0);
    expect(r.out).toContain("\\u001b[2Jpolicy.yaml");
    expect(omniforge("import", file + ".missing").err).toContain("\\u001b[2Jpolicy.yaml.missing");
    for (const x of [un, r, omniforge("import", file + ".missing")]) expect(x.out + x.err).not.toContain("\u001b");
  });
});
