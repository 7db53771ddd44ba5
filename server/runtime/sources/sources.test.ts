// Sources with the real system git: a bare repository made here, fetched, pinned, updated and rolled back; and the
// hostile repositories of issue 39 (a hook, a submodule, a link to /etc, 10,000 files, a force-push) doing nothing.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MemoryAuditSink } from "../audit/events";
import { makeLayerConfig } from "../registry/layers";
import { SkillIndex } from "../registry/skill-index";
import { addSource, listSources, removeSource, rollbackSource, updateSource, type SourceContext } from "./sources";
import { removeTree } from "./checkout";
import { readSources, sourcesDir } from "./state";
import { git, skillMd, TestRepo } from "./test-support/sources";

let dir: string;
let home: string;
let audit: MemoryAuditSink;
let ctx: SourceContext;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-sources-"));
  home = path.join(dir, "home");
  audit = new MemoryAuditSink();
  ctx = { home, audit, actor: { id: "tester" }, env: process.env };
});

afterEach(() => {
  vi.unstubAllEnvs();
  removeTree(dir);
});

const twoSkills = (repo: TestRepo, alpha = "Alpha does the first thing. Use when asked for alpha.") =>
  repo.write({ "skills/alpha/SKILL.md": skillMd("alpha", alpha), "skills/beta/SKILL.md": skillMd("beta", "Beta does the second thing. Use when asked for beta.") });

/** What the registry (every door: CLI, console, agent) serves for `name`. */
function served(name: string) {
  const index = SkillIndex.build(makeLayerConfig({ home, projectRoot: path.join(dir, "project") }));
  return index.definitions(name).map((e) => ({ layer: e.layer, plugin: e.plugin, description: e.description }));
}

describe("a source from a local bare repository", () => {
  it("add pins the ref's commit, update follows a push, rollback goes back, remove forgets; each audited with both commits", async () => {
    const repo = new TestRepo(dir);
    const c1 = twoSkills(repo).commit("two skills");
    const rec = await addSource(ctx, { name: "org", url: repo.bare, path: "skills" });
    expect(rec).toMatchObject({ name: "org", url: repo.bare, ref: "HEAD", path: "skills", layer: "enterprise", commit: c1 });
    expect(served("alpha")).toEqual([{ layer: "enterprise", plugin: undefined, description: "Alpha does the first thing. Use when asked for alpha." }]);
    expect(served("beta")).toHaveLength(1);
    expect((await listSources(ctx, { remote: true }))[0]).toMatchObject({ skills: 2, behind: 0, commit: c1 });

    const c2 = twoSkills(repo, "Alpha, second edition. Use when asked for alpha.").commit("alpha reworded");
    expect((await listSources(ctx, { remote: true }))[0]).toMatchObject({ behind: 1, head: c2, commit: c1 });
    // Pinned: the push alone changes nothing that is served.
    expect(served("alpha")[0]!.description).toBe("Alpha does the first thing. Use when asked for alpha.");

    expect(await updateSource(ctx, "org")).toMatchObject({ from: c1, to: c2, rewound: false });
    expect(served("alpha")[0]!.description).toBe("Alpha, second edition. Use when asked for alpha.");
    expect((await listSources(ctx, { remote: true }))[0]).toMatchObject({ behind: 0, commit: c2, previous: c1 });

    expect(await rollbackSource(ctx, "org")).toMatchObject({ from: c2, to: c1 });
    expect(served("alpha")[0]!.description).toBe("Alpha does the first thing. Use when asked for alpha.");

    // The checkout is read-only: nothing edits a pinned commit in place.
    const checkout = path.join(sourcesDir(home), "org", c1, "skills", "alpha");
    expect([fs.statSync(checkout).mode & 0o222, fs.statSync(path.join(checkout, "SKILL.md")).mode & 0o222]).toEqual([0, 0]);

    await removeSource(ctx, "org");
    expect(served("alpha")).toEqual([]);
    expect(fs.existsSync(path.join(sourcesDir(home), "org"))).toBe(false);
    expect(audit.events.map((e) => [e.type, e.details?.from, e.details?.to])).toEqual([
      ["source_added", null, c1],
      ["source_updated", c1, c2],
      ["source_rolled_back", c2, c1],
      ["source_removed", c1, null],
    ]);
  });

  it("a plugin-layer source's skills appear under the source's name, and update --to pins a chosen commit", async () => {
    const repo = new TestRepo(dir);
    const c1 = twoSkills(repo).commit("one");
    const c2 = twoSkills(repo, "Alpha two. Use when asked for alpha.").commit("two");
    await addSource(ctx, { name: "team-tools", url: `file://${repo.bare}`, ref: "main", path: "skills", layer: "plugin" });
    expect(served("alpha")).toEqual([{ layer: "plugin", plugin: "team-tools", description: "Alpha two. Use when asked for alpha." }]);
    expect(await updateSource(ctx, "team-tools", { to: c1 })).toMatchObject({ from: c2, to: c1, rewound: true });
    expect(served("alpha")[0]!.description).toBe("Alpha does the first thing. Use when asked for alpha.");
  });
});

describe("a ref the repository does not have", () => {
  it("says so in one line and asks for --ref; with a branch it has, the add works", async () => {
    const repo = new TestRepo(dir);
    twoSkills(repo).commit("two skills");
    // A bare repository whose HEAD names a branch nobody pushed (git init's default branch, pushes to another).
    git(dir, ["--git-dir", repo.bare, "symbolic-ref", "HEAD", "refs/heads/master"]);
    const err = await addSource(ctx, { name: "org", url: repo.bare }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "source.no-ref", message: "the repository was reached, but its HEAD names no branch; give --ref with a branch or tag it has" });
    await expect(addSource(ctx, { name: "org", url: repo.bare, ref: "release" })).rejects.toMatchObject({ message: expect.stringContaining(`it has no branch or tag "release"`) });
    expect(await addSource(ctx, { name: "org", url: repo.bare, ref: "main", path: "skills" })).toMatchObject({ ref: "main" });
  });
});

describe("one change at a time", () => {
  it("refuses a change while another live process holds the sources' lock, and takes over a lock its owner left", async () => {
    const repo = new TestRepo(dir);
    twoSkills(repo).commit("two skills");
    const lock = path.join(sourcesDir(home), ".lock");
    fs.mkdirSync(path.dirname(lock), { recursive: true });
    // A live owner: this very process (pid 1 is alive too, but may not be signalled).
    fs.writeFileSync(lock, String(process.pid));
    await expect(addSource(ctx, { name: "org", url: repo.bare, path: "skills" })).rejects.toMatchObject({ code: "source.busy" });
    expect(readSources(home)).toEqual([]);
    // An owner that is gone: a finished child's pid.
    const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
    fs.writeFileSync(lock, gone);
    await addSource(ctx, { name: "org", url: repo.bare, path: "skills" });
    expect(readSources(home).map((r) => r.name)).toEqual(["org"]);
    expect(fs.existsSync(lock)).toBe(false);
  });
});

describe("hostile repositories do nothing", () => {
  it("never runs a hook: not the repository's, not one the caller's own git configuration names", async () => {
    const marker = path.join(dir, "hook-ran");
    const hook = `#!/bin/sh\necho ran >> ${marker}\n`;
    const repo = new TestRepo(dir);
    twoSkills(repo).write({ ".githooks/post-checkout": hook, ".githooks/reference-transaction": hook, "hooks/post-checkout": hook });
    repo.commit("skills and hooks");
    // The caller's global configuration points hooks at a folder of hooks (as a company's set-up may).
    const hooks = path.join(dir, "my-hooks");
    fs.mkdirSync(hooks);
    for (const name of ["post-checkout", "reference-transaction", "post-index-change"]) fs.writeFileSync(path.join(hooks, name), hook, { mode: 0o755 });
    const globalConfig = path.join(dir, "gitconfig");
    fs.writeFileSync(globalConfig, `[core]\n\thooksPath = ${hooks}\n`);
    vi.stubEnv("GIT_CONFIG_GLOBAL", globalConfig);
    // The hooks are real: a plain clone under that configuration runs them.
    git(dir, ["clone", "-q", repo.bare, path.join(dir, "plain-clone")], { GIT_CONFIG_GLOBAL: globalConfig });
    expect(fs.existsSync(marker)).toBe(true);
    fs.rmSync(marker);

    await addSource(ctx, { name: "hooked", url: repo.bare, path: "skills" });
    twoSkills(repo, "Alpha two. Use when asked for alpha.").commit("two");
    await updateSource(ctx, "hooked");
    await rollbackSource(ctx, "hooked");
    expect(served("alpha")).toHaveLength(1);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it("does not fetch a submodule: its folder stays empty", async () => {
    const inner = new TestRepo(dir, "inner");
    inner.write({ "secret-payload.txt": "from the submodule" }).commit("payload");
    const repo = new TestRepo(dir);
    twoSkills(repo);
    git(repo.work, ["-c", "protocol.file.allow=always", "submodule", "add", "-q", inner.bare, "skills/vendored"]);
    const c = repo.commit("with a submodule");
    await addSource(ctx, { name: "subs", url: repo.bare, path: "skills" });
    const vendored = path.join(sourcesDir(home), "subs", c, "skills", "vendored");
    expect(fs.existsSync(path.join(vendored, "secret-payload.txt"))).toBe(false);
    expect(fs.readdirSync(path.dirname(vendored)).sort()).toEqual(expect.arrayContaining(["alpha", "beta"]));
    expect(served("alpha")).toHaveLength(1);
  });

  it("refuses a commit with a link to /etc whole: nothing recorded, nothing left in the data home", async () => {
    const repo = new TestRepo(dir);
    twoSkills(repo).write({ "skills/etc/SKILL.md": { link: "/etc/passwd" }, "skills/evil": { link: "/etc" } }).commit("links out");
    const err = await addSource(ctx, { name: "linky", url: repo.bare, path: "skills" }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "link.outside-layer" });
    expect((err as Error).message).toMatch(/symbolic link that leaves the repository \(skills\/(evil|etc\/SKILL\.md)\)/);
    expect(readSources(home)).toEqual([]);
    expect(fs.existsSync(path.join(sourcesDir(home), "linky"))).toBe(false);
    expect(served("alpha")).toEqual([]);
    expect(audit.events).toEqual([]);
  });

  it("refuses a link to nothing: what it names could appear outside later", async () => {
    const repo = new TestRepo(dir);
    twoSkills(repo).write({ "skills/alpha/references/gone.md": { link: "/nonexistent/omniforge-test/gone.md" } }).commit("dangling");
    await expect(addSource(ctx, { name: "dangling", url: repo.bare, path: "skills" })).rejects.toMatchObject({
      code: "link.broken",
      message: expect.stringContaining("has a symbolic link to nothing (skills/alpha/references/gone.md)"),
    });
  });

  it("keeps a link that stays inside the repository", async () => {
    const repo = new TestRepo(dir);
    twoSkills(repo).write({ "skills/alpha/references/notes.md": { link: "../../../docs/notes.md" }, "docs/notes.md": "Notes." }).commit("inner link");
    await addSource(ctx, { name: "inner", url: repo.bare, path: "skills" });
    expect(served("alpha")).toHaveLength(1);
  });

  it("refuses a 10,000-file tree by the file bound, in one line, before writing a file", async () => {
    const repo = new TestRepo(dir);
    twoSkills(repo).commit("two skills");
    repo.commitBulkFolder("skills/bulk", 10_000);
    const err = await addSource(ctx, { name: "bulk", url: repo.bare, path: "skills" }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "source.too-big" });
    expect((err as Error).message).toMatch(/^commit [0-9a-f]{12} holds more than 5,000 files; a source is limited to 5,000 files and 100 MiB, nothing was written$/);
    expect(fs.existsSync(path.join(sourcesDir(home), "bulk"))).toBe(false);
  });

  it("a force-pushed ref: list says the pinned commit is gone, update refuses without --force and changes nothing", async () => {
    const repo = new TestRepo(dir);
    const c1 = twoSkills(repo).commit("one");
    const c2 = twoSkills(repo, "Alpha two. Use when asked for alpha.").commit("two");
    await addSource(ctx, { name: "moved", url: repo.bare, path: "skills" });
    git(repo.work, ["reset", "-q", "--hard", c1]);
    const c3 = twoSkills(repo, "Alpha rewritten. Use when asked for alpha.").commit("rewritten", { force: true });
    expect((await listSources(ctx, { remote: true }))[0]).toMatchObject({ commit: c2, head: c3, behind: null });
    const err = await updateSource(ctx, "moved").catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "source.force-pushed" });
    expect((err as Error).message).toContain(`no longer contains the pinned commit ${c2.slice(0, 12)} (it was force-pushed); nothing changed`);
    expect(readSources(home)[0]!.commit).toBe(c2);
    expect(served("alpha")[0]!.description).toBe("Alpha two. Use when asked for alpha.");
    expect(await updateSource(ctx, "moved", { force: true })).toMatchObject({ from: c2, to: c3, rewound: true });
    expect(served("alpha")[0]!.description).toBe("Alpha rewritten. Use when asked for alpha.");
    expect(audit.events.at(-1)).toMatchObject({ type: "source_updated", details: { from: c2, to: c3, rewound: true } });
  });

  it("refuses transports outside the allow-list and addresses git would read as options", async () => {
    for (const url of ["ext::sh -c touch% /tmp/pwned", "-uhello", "ftp://example.com/x.git", "fd::3"]) {
      await expect(addSource(ctx, { name: "bad", url })).rejects.toMatchObject({ code: "source.bad-url" });
    }
    expect(fs.readdirSync(sourcesDir(home))).toEqual([]);
  });

  it("refuses a source name that is no plain folder name (sources.json, dots, separators)", async () => {
    for (const name of ["sources.json", "..", "a/b", ".hidden", "-x", ""]) {
      await expect(addSource(ctx, { name, url: "https://example.com/x.git" })).rejects.toMatchObject({ code: "source.bad-name" });
    }
  });
});

describe("a repository that is a Claude Code marketplace", () => {
  const example = fs.readFileSync(path.join(import.meta.dirname, "testdata", "marketplace.json"), "utf8");

  it("gives each plugin's skills under the plugin's name: listed skills with strict false, else the plugin's skills/ folder", async () => {
    const repo = new TestRepo(dir);
    const c = twoSkills(repo)
      .write({
        ".claude-plugin/marketplace.json": example,
        "skills/gamma/SKILL.md": skillMd("gamma", "Gamma is in no plugin's list. Use when asked for gamma."),
        "plugins/reviewer/.claude-plugin/plugin.json": JSON.stringify({ name: "reviewer", version: "2.1.0" }),
        "plugins/reviewer/skills/review/SKILL.md": skillMd("review", "Reviews a change. Use when asked for a review."),
      })
      .commit("marketplace");
    await addSource(ctx, { name: "acme", url: repo.bare });
    expect(served("alpha")).toEqual([{ layer: "plugin", plugin: "docs-kit", description: "Alpha does the first thing. Use when asked for alpha." }]);
    expect(served("beta")).toEqual([expect.objectContaining({ layer: "plugin", plugin: "docs-kit" })]);
    expect(served("review")).toEqual([expect.objectContaining({ layer: "plugin", plugin: "reviewer" })]);
    expect(served("gamma")).toEqual([]);
    expect((await listSources(ctx))[0]).toMatchObject({ commit: c, skills: 3, roots: [{ plugin: "docs-kit" }, { plugin: "reviewer" }] });

    // An update re-reads the marketplace: a skill added to a plugin's list appears under it.
    const listed = JSON.parse(example);
    listed.plugins[0].skills.push("./skills/gamma");
    repo.write({ ".claude-plugin/marketplace.json": JSON.stringify(listed) }).commit("gamma listed");
    await updateSource(ctx, "acme");
    expect(served("gamma")).toEqual([expect.objectContaining({ layer: "plugin", plugin: "docs-kit" })]);
    await rollbackSource(ctx, "acme");
    expect(served("gamma")).toEqual([]);
  });

  it("refuses a plugin source or skill path that leaves the repository", async () => {
    const repo = new TestRepo(dir);
    const bad = { name: "bad", owner: { name: "x" }, plugins: [{ name: "escape", source: "./", strict: false, skills: ["../../../../etc"] }] };
    twoSkills(repo).write({ ".claude-plugin/marketplace.json": JSON.stringify(bad) }).commit("escape");
    await expect(addSource(ctx, { name: "bad", url: repo.bare })).rejects.toMatchObject({ code: "marketplace.outside" });
    expect(readSources(home)).toEqual([]);
  });
});
