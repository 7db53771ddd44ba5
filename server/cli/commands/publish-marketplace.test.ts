// `omniforge publish marketplace` through the real bin: the files against the fields Claude Code documents, versions
// that move only with content, a commit when the folder is a git work tree, and a round trip: `source add` of the
// published repository serves the same skills again.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeTree } from "../../runtime/sources/checkout";
import { git, skillMd, TestRepo } from "../../runtime/sources/test-support/sources";

const repo = path.resolve(import.meta.dirname, "../../..");
const fields = JSON.parse(fs.readFileSync(path.join(repo, "server/runtime/sources/testdata/documented-fields.json"), "utf8"));
let dir: string;
let home: string;
let project: string;
let out: string;

const identity = { GIT_AUTHOR_NAME: "Publisher", GIT_AUTHOR_EMAIL: "p@example.com", GIT_COMMITTER_NAME: "Publisher", GIT_COMMITTER_EMAIL: "p@example.com" };

function omniforge(home_: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(repo, "bin/omniforge.mjs"), ...args, "--home", home_, ...(args[0] === "source" ? [] : ["--project", project])],
      { cwd: dir, encoding: "utf8", env: { ...process.env, ...identity, OMNIFORGE_HOME: "", HOME: dir, OMNIFORGE_CACHE_DIR: "off", GIT_CONFIG_GLOBAL: "/dev/null" }, timeout: 120_000 },
      (e, stdout, stderr) => resolve({ code: e ? Number(e.code ?? 1) : 0, out: stdout, err: stderr }),
    );
  });
}

const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};
const readJson = (rel: string) => JSON.parse(fs.readFileSync(path.join(out, rel), "utf8"));
const URL_ = "https://git.example.com/acme/marketplace.git";
const sha = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");

/** Every key of `obj` is one the documentation names, and every required one is there. */
function documented(obj: Record<string, unknown>, spec: { required?: string[]; known: string[] }) {
  expect(Object.keys(obj).filter((k) => !spec.known.includes(k))).toEqual([]);
  for (const k of spec.required ?? []) expect(obj[k], k).toBeDefined();
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-publish-"));
  home = path.join(dir, "home");
  project = path.join(dir, "project");
  out = path.join(dir, "marketplace");
  write(path.join(home, "enterprise/skills/policy-check/SKILL.md"), skillMd("policy-check", "Checks a change against policy. Use when asked to check policy."));
  write(path.join(home, "enterprise/skills/policy-check/scripts/run.sh"), "#!/bin/sh\necho ok\n");
  fs.chmodSync(path.join(home, "enterprise/skills/policy-check/scripts/run.sh"), 0o755);
  write(path.join(project, ".omniforge/skills/release-notes/SKILL.md"), skillMd("release-notes", "Writes release notes. Use when asked for release notes."));
  write(path.join(home, "skills/my-own/SKILL.md"), skillMd("my-own", "A person's own skill. Use when asked for mine."));
  const origin = new TestRepo(dir, "org");
  origin.write({ "skills/onboarding/SKILL.md": skillMd("onboarding", "Onboards a new hire. Use when someone joins.") }).commit("onboarding");
  expect((await omniforge(home, "source", "add", "org", "--git", origin.bare, "--path", "skills")).code).toBe(0);
  fs.mkdirSync(out);
  git(out, ["init", "-q"]);
});

afterAll(() => removeTree(dir));

describe("omniforge publish marketplace", () => {
  it("writes a marketplace with the documented fields, a plugin per layer and source, and commits it", async () => {
    const r = await omniforge(home, "publish", "marketplace", "--out", out, "--name", "acme", "--owner", "Acme IT", "--url", URL_);
    expect(r.err).toBe("");
    expect(r.out).toMatch(/^enterprise 1\.0\.0: 1 skill \(changed\)\norg 1\.0\.0: 1 skill \(changed\)\nproject 1\.0\.0: 1 skill \(changed\)\nmarketplace acme written to .*; committed [0-9a-f]{12}\n$/);
    const m = readJson(".claude-plugin/marketplace.json");
    documented(m, fields.marketplace);
    documented(m.owner, fields.marketplace.owner);
    documented(m.metadata, fields.marketplace.metadata);
    expect(m).toMatchObject({ name: "acme", owner: { name: "Acme IT" } });
    expect(m.plugins.map((p: { name: string }) => p.name)).toEqual(["enterprise", "org", "project"]);
    for (const p of m.plugins) {
      documented(p, fields.pluginEntry);
      expect(p.source).toBe(`./plugins/${p.name}`);
      const manifest = readJson(`plugins/${p.name}/.claude-plugin/plugin.json`);
      documented(manifest, fields.pluginManifest);
      expect(manifest).toMatchObject({ name: p.name, version: p.version });
    }
    // A person's own skills are theirs: never published.
    expect(fs.existsSync(path.join(out, "plugins/personal"))).toBe(false);
    expect(fs.statSync(path.join(out, "plugins/enterprise/skills/policy-check/scripts/run.sh")).mode & 0o111).not.toBe(0);
    const settings = readJson("managed-settings.json");
    expect(Object.keys(settings).filter((k) => !fields.managedSettings.known.includes(k))).toEqual([]);
    const { source } = settings.extraKnownMarketplaces.acme;
    expect(Object.keys(source).sort()).toEqual(["source", ...fields.managedSettings.marketplaceSourceKinds[source.source]].sort());
    expect(settings).toEqual({
      extraKnownMarketplaces: { acme: { source: { source: "git", url: URL_ } } },
      enabledPlugins: { "enterprise@acme": true, "org@acme": true, "project@acme": true },
    });
    expect(git(out, ["status", "--porcelain"])).toBe("");
  });

  it("keeps every version when nothing changed, and moves only the changed plugin's", async () => {
    const head = git(out, ["rev-parse", "HEAD"]);
    const again = await omniforge(home, "publish", "marketplace", "--out", out, "--name", "acme", "--owner", "Acme IT", "--url", URL_);
    expect(again.out).toMatch(/^enterprise 1\.0\.0: 1 skill\norg 1\.0\.0: 1 skill\nproject 1\.0\.0: 1 skill\n/);
    write(path.join(project, ".omniforge/skills/release-notes/SKILL.md"), skillMd("release-notes", "Writes release notes, grouped. Use when asked for release notes."));
    const changed = await omniforge(home, "publish", "marketplace", "--out", out, "--name", "acme", "--owner", "Acme IT", "--url", URL_);
    expect(changed.out).toMatch(/^enterprise 1\.0\.0: 1 skill\norg 1\.0\.0: 1 skill\nproject 1\.1\.0: 1 skill \(changed\)\n/);
    expect(readJson(".claude-plugin/marketplace.json").plugins.map((p: { version: string }) => p.version)).toEqual(["1.0.0", "1.0.0", "1.1.0"]);
    expect(git(out, ["rev-list", "--count", `${head}..HEAD`])).toBe("1");
  });

  it("round trip: source add of the published repository serves the same skills, under the plugins' names", async () => {
    const home2 = path.join(dir, "home2");
    fs.mkdirSync(home2);
    expect(await omniforge(home2, "source", "add", "acme", "--git", out)).toMatchObject({ code: 0 });
    const listed = JSON.parse((await omniforge(home2, "skill", "list", "--json")).out) as { name: string; layer: string; plugin?: string; file: string; source?: unknown }[];
    const fromSource = listed.filter((s) => s.source).map((s) => [s.name, s.layer, s.plugin, sha(s.file)]);
    expect(fromSource.sort()).toEqual(
      [
        ["onboarding", "plugin", "org", sha(path.join(out, "plugins/org/skills/onboarding/SKILL.md"))],
        ["policy-check", "plugin", "enterprise", sha(path.join(home, "enterprise/skills/policy-check/SKILL.md"))],
        ["release-notes", "plugin", "project", sha(path.join(project, ".omniforge/skills/release-notes/SKILL.md"))],
      ].sort(),
    );
  });
});
