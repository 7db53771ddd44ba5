import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BodyCache } from "./body";
import { layerRoots, makeLayerConfig, writableRoot } from "./layers";
import { resolve } from "./resolve";
import { SkillIndex } from "./skill-index";
import { tempLayers, type TempLayers, waitFor, writePlugin, writeSkill } from "./test-support/registry";

let t: TempLayers;
let index: SkillIndex | null = null;
beforeEach(() => {
  t = tempLayers();
});
afterEach(async () => {
  await index?.close();
  index = null;
  t.cleanup();
});

const projectRoot = () => writableRoot(t.config, "project");

describe("layer roots", () => {
  it("CLI users read <home>/skills; console users <home>/users/<id>/skills; the project reads vendor folders", () => {
    const roots = layerRoots(t.config).map((r) => `${r.layer}:${path.relative(t.base, r.dir)}`);
    expect(roots).toEqual([
      "enterprise:home/enterprise/skills",
      "personal:home/skills",
      "project:project/.omniforge/skills",
      "project:project/.claude/skills",
      "project:project/.agents/skills",
      "project:project/.codex/skills",
      "project:project/.gemini/skills",
    ]);
    const user = tempLayers("alice");
    try {
      expect(writableRoot(user.config, "personal")).toBe(path.join(user.home, "users", "alice", "skills"));
      writePlugin(user.home, "acme", "2026-01-01T00:00:00.000Z");
      const plugin = layerRoots(user.config).find((r) => r.layer === "plugin")!;
      expect(plugin).toMatchObject({ plugin: "acme", installedAt: "2026-01-01T00:00:00.000Z" });
      expect(plugin.dir).toBe(path.join(user.home, "plugins", "acme", "skills"));
    } finally {
      user.cleanup();
    }
  });
});

describe("index", () => {
  it("finds nested skills and skills in .claude/.agents/.codex folders", () => {
    writeSkill(projectRoot(), "suite");
    writeSkill(projectRoot(), "suite-part", { rel: "suite/parts/suite-part" });
    writeSkill(path.join(t.project, ".claude", "skills"), "from-claude");
    writeSkill(path.join(t.project, ".agents", "skills"), "from-agents");
    writeSkill(path.join(t.project, ".codex", "skills"), "from-codex");
    index = SkillIndex.build(t.config);
    expect(index.entries().map((e) => e.name).sort()).toEqual(["from-agents", "from-claude", "from-codex", "suite", "suite-part"]);
    expect(index.entries().every((e) => e.layer === "project")).toBe(true);
  });

  it("lists a broken SKILL.md with its error instead of hiding it", () => {
    writeSkill(projectRoot(), "broken", { raw: "---\nname: broken\ndescription: [unclosed\n---\n# body\n" });
    writeSkill(projectRoot(), "fine");
    index = SkillIndex.build(t.config);
    const broken = index.definitions("broken")[0]!;
    expect(broken).toMatchObject({ layer: "project", loadable: false, status: "invalid" });
    expect(broken.diagnostics.some((d) => d.severity === "error")).toBe(true);
    expect(index.definitions("fine")[0]!.status).toBe("ok");
  });

  it("keeps only metadata: no body in the entries", () => {
    writeSkill(projectRoot(), "meta", { body: "SECRET-BODY-MARKER\n", extra: "tags: [a, b]\npriority: 4" });
    index = SkillIndex.build(t.config);
    const e = index.definitions("meta")[0]!;
    expect(JSON.stringify(e)).not.toContain("SECRET-BODY-MARKER");
    expect(e).toMatchObject({ tags: ["a", "b"], priority: 4, hasScripts: false });
    expect(e.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it("warm rebuild reuses unchanged entries and re-parses only the edited one", () => {
    for (const n of ["a", "b", "c"]) writeSkill(projectRoot(), n);
    index = SkillIndex.build(t.config);
    const before = index.definitions("a")[0]!;
    fs.writeFileSync(path.join(projectRoot(), "b", "SKILL.md"), "---\nname: b\ndescription: Edited description.\n---\nnew\n");
    const stats = index.rebuild();
    expect(stats).toMatchObject({ entries: 3, parsed: 1, reused: 2, removed: 0 });
    expect(index.definitions("a")[0]).toBe(before);
    expect(index.definitions("b")[0]!.description).toBe("Edited description.");
  });

  it("a new user's index reuses another user's unchanged shared entries, never their personal ones", () => {
    for (const n of ["a", "b"]) writeSkill(projectRoot(), n);
    const alice = SkillIndex.build(makeLayerConfig({ home: t.home, projectRoot: t.project, userId: "alice" }));
    writeSkill(writableRoot(alice.config, "personal"), "mine");
    alice.rebuild();
    fs.writeFileSync(path.join(projectRoot(), "b", "SKILL.md"), "---\nname: b\ndescription: Changed since.\n---\nnew\n");
    const bob = SkillIndex.build(makeLayerConfig({ home: t.home, projectRoot: t.project, userId: "bob" }), { reuse: alice });
    // Unchanged: the very same entry; changed since: read again; someone else's personal skill: not there.
    expect(bob.definitions("a")[0]).toBe(alice.definitions("a")[0]);
    expect(bob.definitions("b")[0]!.description).toBe("Changed since.");
    expect(bob.definitions("mine")).toEqual([]);
    void alice.close();
  });

  it("refresh(paths) picks up a new skill, an edit, a deleted skill and a new plugin", () => {
    writeSkill(projectRoot(), "keep");
    index = SkillIndex.build(t.config);
    const added = writeSkill(projectRoot(), "added");
    let change = index.refresh([added]);
    expect(change.added.map((e) => e.name)).toEqual(["added"]);

    fs.writeFileSync(path.join(added, "SKILL.md"), "---\nname: added\ndescription: Changed.\n---\n");
    change = index.refresh([path.join(added, "SKILL.md")]);
    expect(change.changed.map((e) => e.description)).toEqual(["Changed."]);

    fs.mkdirSync(path.join(added, "scripts"));
    fs.writeFileSync(path.join(added, "scripts", "x.sh"), "true\n");
    change = index.refresh([path.join(added, "scripts", "x.sh")]);
    expect(change.changed[0]?.hasScripts).toBe(true);

    fs.rmSync(added, { recursive: true });
    change = index.refresh([added]);
    expect(change.removed.map((e) => e.name)).toEqual(["added"]);

    const plug = writePlugin(t.home, "acme", "2026-02-02T00:00:00.000Z");
    writeSkill(plug, "from-plugin");
    change = index.refresh([path.dirname(plug)]);
    expect(change.added.map((e) => `${e.name}@${e.plugin}`)).toEqual(["from-plugin@acme"]);
    expect(index.entries().map((e) => e.name).sort()).toEqual(["from-plugin", "keep"]);
  });

  it("loads bodies on activation, cached by digest, and always the current file", () => {
    const dir = writeSkill(projectRoot(), "act", { body: "Step one.\n" });
    index = new SkillIndex(t.config, { bodyCache: new BodyCache() });
    index.rebuild({ cold: true });
    const e = index.definitions("act")[0]!;
    const first = index.loadBody(e);
    expect(first).toMatchObject({ body: "Step one.\n", fromCache: false, changedSinceIndex: false, digest: e.digest });
    const second = index.loadBody(e);
    expect(second.fromCache).toBe(true);
    expect(second.body).toBe("Step one.\n");
    fs.writeFileSync(path.join(dir, "SKILL.md"), fs.readFileSync(path.join(dir, "SKILL.md"), "utf8").replace("Step one.", "Step two."));
    const third = index.loadBody(e);
    expect(third).toMatchObject({ body: "Step two.\n", fromCache: false, changedSinceIndex: true });
    // A warm body load is a read + hash: well under a millisecond.
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const s = performance.now();
      index.loadBody(e);
      times.push(performance.now() - s);
    }
    times.sort((a, b) => a - b);
    expect(times[Math.floor(times.length * 0.5)]!).toBeLessThan(1);
  });
});

describe("watcher", () => {
  it("picks up an edit, a new skill, a deleted skill and a layer folder created later", async () => {
    writeSkill(projectRoot(), "watched");
    index = SkillIndex.build(t.config);
    const changes: string[] = [];
    index.onChange((c) => changes.push(...c.added.map((e) => `+${e.name}`), ...c.changed.map((e) => `~${e.name}`), ...c.removed.map((e) => `-${e.name}`)));
    await index.watch({ debounceMs: 50, rootPollMs: 100 });

    fs.writeFileSync(path.join(projectRoot(), "watched", "SKILL.md"), "---\nname: watched\ndescription: Edited outside the console.\n---\n");
    expect(await waitFor(() => index!.definitions("watched")[0]?.description === "Edited outside the console.")).toBe(true);

    writeSkill(projectRoot(), "fresh");
    expect(await waitFor(() => index!.definitions("fresh").length === 1)).toBe(true);

    fs.rmSync(path.join(projectRoot(), "watched"), { recursive: true });
    expect(await waitFor(() => index!.definitions("watched").length === 0)).toBe(true);

    // The enterprise folder did not exist when watching started.
    writeSkill(writableRoot(t.config, "enterprise"), "fresh");
    expect(await waitFor(() => resolve(index!, "fresh").active?.layer === "enterprise")).toBe(true);

    // A plugin installed while watching.
    writeSkill(writePlugin(t.home, "later", "2026-05-05T00:00:00.000Z"), "plugged");
    expect(await waitFor(() => index!.definitions("plugged").length === 1)).toBe(true);

    expect(changes).toEqual(expect.arrayContaining(["~watched", "+fresh", "-watched", "+plugged"]));
  });
});

describe("watcher by polling (network file systems, or after the OS watch limit is hit)", () => {
  it("picks up an edit", async () => {
    writeSkill(projectRoot(), "polled");
    index = SkillIndex.build(t.config);
    await index.watch({ usePolling: true, debounceMs: 50 });
    // Polling compares against a first stat taken asynchronously after "ready"; let one interval pass.
    await new Promise((r) => setTimeout(r, 1500));
    fs.writeFileSync(path.join(projectRoot(), "polled", "SKILL.md"), "---\nname: polled\ndescription: Seen by polling.\n---\n");
    expect(await waitFor(() => index!.definitions("polled")[0]?.description === "Seen by polling.", 10_000)).toBe(true);
  });
});

describe("body loading safety", () => {
  it("a SKILL.md swapped for a symlink leaving the folder after indexing is refused, not read", () => {
    const dir = writeSkill(projectRoot(), "swap");
    index = new SkillIndex(t.config, { bodyCache: new BodyCache() });
    index.rebuild({ cold: true });
    const e = index.definitions("swap")[0]!;
    const outside = path.join(t.base, "outside.md");
    fs.writeFileSync(outside, "---\nname: swap\ndescription: Not from the skill folder.\n---\nOUTSIDE BODY\n");
    fs.rmSync(path.join(dir, "SKILL.md"));
    fs.symlinkSync(outside, path.join(dir, "SKILL.md"));
    expect(() => index!.loadBody(e)).toThrow(/does not load/);
  });
});

describe("a refresh with a donor (one save taken in by every user's index)", () => {
  it("takes the donor's entry while the SKILL.md is as it read it, and reads it again once it changed", () => {
    const enterprise = writableRoot(t.config, "enterprise");
    const bob = { ...t.config, userId: "bob" };
    const a = SkillIndex.build(t.config);
    const b = SkillIndex.build(bob);
    const dir = writeSkill(enterprise, "saved-once", { description: "First words. Use when testing." });
    a.refresh([dir]);
    b.refresh([dir], { donor: a });
    expect(b.get(dir)).toBe(a.get(dir));
    // Changed after the donor read it: taken from the disk, not from the donor.
    const file = path.join(dir, "SKILL.md");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("First words.", "Second, longer words."));
    b.refresh([dir], { donor: a });
    expect(b.get(dir)).not.toBe(a.get(dir));
    expect(b.get(dir)!.description).toBe("Second, longer words. Use when testing.");
    // And an index with other entry options never takes a donor's entries (they hold other checks).
    const listing = SkillIndex.build(t.config, { entries: { checks: "frontmatter" } });
    a.refresh([dir]);
    listing.refresh([dir], { donor: a });
    expect(listing.get(dir)!.description).toBe("Second, longer words. Use when testing.");
    expect(listing.get(dir)).not.toBe(a.get(dir));
  });
});
