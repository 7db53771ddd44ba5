import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listSkills, skillInfo } from "./index";
import { createSkill } from "./lifecycle";
import { saveFile, readSkillFile } from "./edit";
import { liveCheck } from "./live-check";
import { skillMd, writeSkillOnDisk } from "./test-support/skills";
import { useSkillsTestHome } from "../../test-support/test-home";
import { refreshAll } from "../catalog/catalog";

const h = useSkillsTestHome();

describe("skills list", () => {
  it("shows every layer the user may see with status, tags, last change and who", async () => {
    const admin = h.ctx(h.actor("admin"));
    const author = h.ctx(h.actor("author"));
    await createSkill(admin, { layer: "enterprise", name: "review", description: "Company review rules. Use for reviews.", template: "basic" });
    await createSkill(author, { layer: "project", name: "review", description: "Project review. Use for reviews.", template: "basic" });
    writeSkillOnDisk(path.join(h.dataHome.projectRoot, ".claude/skills/tagged"), { "SKILL.md": skillMd("tagged", "Tagged skill. Use it.", "tags: [alpha, beta]\n") });
    writeSkillOnDisk(path.join(h.dataHome.projectRoot, ".omniforge/skills/broken"), { "SKILL.md": "no frontmatter\n" });
    // Someone else's personal skill is not in my list.
    writeSkillOnDisk(path.join(h.dataHome.home, "users/other/skills/theirs"), { "SKILL.md": skillMd("theirs") });
    const list = await listSkills(author, {});
    const by = (layer: string, name: string) => list.rows.find((r) => r.layer === layer && r.name === name)!;
    expect(list.rows.map((r) => r.name).sort()).toEqual(["broken", "review", "review", "tagged"]);
    expect(by("enterprise", "review")).toMatchObject({ status: "active", lastChange: { source: "console", by: "admin-1@x.io" } });
    expect(by("project", "review")).toMatchObject({ status: "shadowed" });
    expect(by("project", "tagged")).toMatchObject({ status: "active", tags: ["alpha", "beta"], lastChange: { source: "disk", by: null } });
    expect(by("project", "tagged").ref).toMatchObject({ base: ".claude/skills", skill: "tagged" });
    expect(by("project", "broken").status).toBe("invalid");
    // The editor reads a vendor-folder skill through its ref.
    const info = await skillInfo(author, by("project", "tagged").ref);
    expect(info).toMatchObject({ name: "tagged", status: "active", canWrite: true });
    expect((await skillInfo(h.ctx(h.actor("viewer")), by("project", "tagged").ref)).canWrite).toBe(false);
  });

  it("searches name, description, tags and body text; filters by layer and status; sorts and pages", async () => {
    const author = h.ctx(h.actor("author"));
    const root = path.join(h.dataHome.projectRoot, ".omniforge/skills");
    writeSkillOnDisk(path.join(root, "alpha"), { "SKILL.md": skillMd("alpha", "First one. Use it.", "tags: [docs]\n") + "\nMentions zebra crossings.\n" });
    writeSkillOnDisk(path.join(root, "beta"), { "SKILL.md": skillMd("beta", "Second one about pdf. Use it.") });
    writeSkillOnDisk(path.join(root, "gamma"), { "SKILL.md": skillMd("gamma") });
    await createSkill(author, { layer: "personal", name: "delta", description: "Personal delta. Use it.", template: "basic" });
    expect((await listSkills(author, { q: "zebra" })).rows.map((r) => r.name)).toEqual(["alpha"]);
    expect((await listSkills(author, { q: "pdf" })).rows.map((r) => r.name)).toEqual(["beta"]);
    expect((await listSkills(author, { q: "docs" })).rows.map((r) => r.name)).toEqual(["alpha"]);
    expect((await listSkills(author, { layers: ["personal"] })).rows.map((r) => r.name)).toEqual(["delta"]);
    const desc = await listSkills(author, { sort: "name", dir: "desc", limit: 2 });
    expect(desc.total).toBe(4);
    expect(desc.rows.map((r) => r.name)).toEqual(["gamma", "delta"]);
    expect((await listSkills(author, { sort: "name", offset: 3 })).rows.map((r) => r.name)).toEqual(["gamma"]);
    expect((await listSkills(author, { statuses: ["invalid"] })).total).toBe(0);
    expect((await listSkills(author, {})).counts.layers).toEqual({ personal: 1, project: 3 });
    // A name defined in two layers is one skill with two definitions.
    writeSkillOnDisk(path.join(h.dataHome.home, "enterprise", "skills", "alpha"), { "SKILL.md": skillMd("alpha") });
    refreshAll([path.join(h.dataHome.home, "enterprise", "skills", "alpha")]); // no watcher in tests
    const both = await listSkills(author, {});
    expect([both.names, both.total]).toEqual([4, 5]);
  });

  it("a search kept from an earlier page is not served once a body, a policy or the last change moves on", async () => {
    const author = h.ctx(h.actor("author"));
    const admin = h.ctx(h.actor("admin"));
    const root = path.join(h.dataHome.projectRoot, ".omniforge/skills");
    writeSkillOnDisk(path.join(root, "alpha"), { "SKILL.md": skillMd("alpha", "First one. Use it.") + "\nMentions zebra crossings.\n" });
    writeSkillOnDisk(path.join(root, "beta"), { "SKILL.md": skillMd("beta", "Second one. Use it.") });
    expect((await listSkills(author, { q: "zebra" })).rows.map((r) => r.name)).toEqual(["alpha"]);
    expect((await listSkills(author, { q: "zebra", offset: 0, limit: 1 })).rows.map((r) => r.name)).toEqual(["alpha"]);
    const ref = (await listSkills(author, { q: "beta" })).rows[0]!.ref;
    const loaded = readSkillFile(author, ref, "SKILL.md");
    await saveFile(author, { ref, path: "SKILL.md", text: loaded.text + "\nA zebra too.\n", baseDigest: loaded.digest });
    const after = await listSkills(author, { q: "zebra" });
    expect(after.rows.map((r) => r.name)).toEqual(["alpha", "beta"]);
    // The page's last change is the save just made, by its author.
    expect(after.rows[1]!.lastChange).toMatchObject({ source: "console", by: "author-1@x.io" });
    const active = () => listSkills(author, { statuses: ["active"], sort: "name", limit: 1 });
    expect([(await active()).total, (await active()).counts.statuses]).toEqual([2, { active: 2 }]);
    // A policy change is a new resolution: the same search shows the new status.
    const { writeStoredPolicy } = await import("../policy/store");
    await writeStoredPolicy(admin.db, { blockedNames: ["alpha"], disabled: [] }, admin.actor.id);
    expect((await listSkills(author, { q: "zebra" })).rows.map((r) => [r.name, r.status])).toEqual([
      ["alpha", "blocked"],
      ["beta", "active"],
    ]);
    // And so do a filter and its counts asked before, with the same page.
    const now = await active();
    expect([now.total, now.rows.map((r) => r.name), now.counts.statuses]).toEqual([1, ["beta"], { active: 1, blocked: 1 }]);
  });

  it("lists, searches and pages 1,000 skills (figure printed)", async () => {
    const author = h.ctx(h.actor("author"));
    const root = path.join(h.dataHome.projectRoot, ".omniforge/skills");
    for (let i = 0; i < 1000; i++) {
      const name = `skill-${String(i).padStart(4, "0")}`;
      writeSkillOnDisk(path.join(root, name), { "SKILL.md": skillMd(name, `Skill number ${i}. Use for task ${i}.`, `tags: [t${i % 10}]\n`) + `\nSecret word w${i}x.\n` });
    }
    let t = performance.now();
    const first = await listSkills(author, { limit: 100 });
    const cold = performance.now() - t;
    t = performance.now();
    const again = await listSkills(author, { limit: 100, offset: 900, sort: "name" });
    const warm = performance.now() - t;
    t = performance.now();
    const body = await listSkills(author, { q: "w777x" });
    const bodySearch = performance.now() - t;
    t = performance.now();
    await listSkills(author, { q: "w778x" });
    const bodySearchWarm = performance.now() - t;
    console.log(
      `[list 1000] first call (index build) ${cold.toFixed(0)} ms, warm page ${warm.toFixed(0)} ms, ` +
        `first body search ${bodySearch.toFixed(0)} ms, next body search ${bodySearchWarm.toFixed(0)} ms`,
    );
    expect(first.total).toBe(1000);
    expect(first.rows).toHaveLength(100);
    expect(again.rows[0]!.name).toBe("skill-0900");
    expect(body.rows.map((r) => r.name)).toEqual(["skill-0777"]);
    expect((await listSkills(author, { tag: "t3" })).total).toBe(100);
  });
});

describe("live check", () => {
  it("gives the validator's diagnostics for unsaved text, the stage-1 entry, costs and where links go", async () => {
    const author = h.ctx(h.actor("author"));
    const { ref } = await createSkill(author, { layer: "project", name: "live", description: "Live checks. Use it.", template: "with-reference" });
    const bad = liveCheck(author, ref, "---\nname: Live\ndescription: x\n---\nbody\n");
    expect(bad.diagnostics.some((d) => d.code.startsWith("name.") && d.severity === "error" && d.line === 2)).toBe(true);
    const text = readSkillFile(author, ref, "SKILL.md").text! + "\n[out](../other/SKILL.md) [gone](references/none.md) [web](https://example.com)\n";
    const ok = liveCheck(author, ref, text);
    expect(ok.loadable).toBe(true);
    expect(ok.diagnostics.map((d) => d.code).sort()).toEqual(["body.missing-reference", "body.path-escape"]);
    expect(ok.listing).toContain("<name>\nlive\n</name>");
    expect(ok.listing).toContain(path.join(h.dataHome.projectRoot, ".omniforge/skills/live/SKILL.md"));
    expect(ok.stage1.chars).toBeGreaterThan(20);
    expect(ok.stage1.tokens).toBeGreaterThan(5);
    expect(ok.stage2.chars).toBe(ok.body.length);
    const kinds = Object.fromEntries(ok.links.map((l) => [l.href, l.kind]));
    expect(kinds).toMatchObject({ "references/REFERENCE.md": "inside", "../other/SKILL.md": "outside", "references/none.md": "missing", "https://example.com": "url" });
    // Unsaved: nothing was written.
    expect(fs.readFileSync(path.join(h.dataHome.projectRoot, ".omniforge/skills/live/SKILL.md"), "utf8")).not.toContain("[out]");
    await expect(saveFile(author, { ref, path: "SKILL.md", text, baseDigest: "0".repeat(64) })).rejects.toThrow();
  });
});
