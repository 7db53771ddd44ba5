import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { deploySkill, DeployError } from "./deploy";
import { writableRoot } from "./layers";
import { resolve } from "./resolve";
import { SkillIndex } from "./skill-index";
import { listTree, tempLayers, type TempLayers, writePlugin, writeSkill } from "./test-support/registry";

let t: TempLayers;
beforeEach(() => {
  t = tempLayers();
});
afterEach(() => t.cleanup());

const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return "ok";
  } catch (e) {
    if (e instanceof DeployError) return e.code;
    throw e;
  }
};

describe("deploy", () => {
  it("copies the active definition into a higher layer and reports the active one before and after", () => {
    const src = writeSkill(writableRoot(t.config, "project"), "review", { scripts: { "lint.sh": "echo lint\n" } });
    fs.mkdirSync(path.join(src, "references"));
    fs.writeFileSync(path.join(src, "references", "guide.md"), "# guide\n");
    const index = SkillIndex.build(t.config);
    const report = deploySkill(index, "review", "enterprise");
    const target = path.join(writableRoot(t.config, "enterprise"), "review");
    expect(report.to).toEqual({ layer: "enterprise", dir: target });
    expect(report.before).toMatchObject({ layer: "project", dir: src });
    expect(report.after).toMatchObject({ layer: "enterprise", dir: target });
    expect(report.activeChanged).toBe(true);
    expect(report.message).toContain("changes from the project definition");
    expect(listTree(target)).toEqual(["SKILL.md", "references", "references/guide.md", "scripts", "scripts/lint.sh"]);
    expect(fs.statSync(path.join(target, "scripts", "lint.sh")).mode & 0o100).not.toBe(0);
    // The index given was refreshed: resolution sees the new definition at once.
    expect(resolve(index, "review").active?.layer).toBe("enterprise");
    expect(listTree(writableRoot(t.config, "enterprise")).filter((p) => p.startsWith("."))).toEqual([]);
  });

  it("refuses to overwrite without force, replaces with force", () => {
    writeSkill(writableRoot(t.config, "project"), "notes", { body: "project version\n" });
    writeSkill(writableRoot(t.config, "personal"), "notes", { body: "old personal\n" });
    // The active definition is personal: choose the project definition explicitly.
    expect(codeOf(() => deploySkill(t.config, "notes", "personal", { from: { layer: "project" } }))).toBe("deploy.copy");
    const r = deploySkill(t.config, "notes", "personal", { from: { layer: "project" }, force: true });
    expect(r.replaced).toBe(true);
    expect(r.activeChanged).toBe(true); // same layer and folder, new content (digest)
    expect(fs.readFileSync(path.join(writableRoot(t.config, "personal"), "notes", "SKILL.md"), "utf8")).toContain("project version");
  });

  it("deploying below the active definition says the copy is shadowed", () => {
    writeSkill(writableRoot(t.config, "enterprise"), "std");
    writeSkill(writePlugin(t.home, "p", "2026-01-01T00:00:00.000Z"), "std");
    const r = deploySkill(t.config, "std@p", "project");
    expect(r.from).toMatchObject({ layer: "plugin", plugin: "p" });
    expect(r.activeChanged).toBe(false);
    expect(r.message).toContain("stays the enterprise definition");
    expect(r.message).toContain("shadowed by the enterprise definition");
  });

  it("clear errors: unknown name, plugin target, broken source, same folder", () => {
    expect(codeOf(() => deploySkill(t.config, "missing", "project"))).toBe("deploy.not-found");
    expect(codeOf(() => deploySkill(t.config, "x", "plugin"))).toBe("deploy.layer");
    expect(codeOf(() => deploySkill(t.config, "../x", "project"))).toBe("deploy.name");
    writeSkill(writableRoot(t.config, "project"), "bad", { raw: "nothing\n" });
    expect(codeOf(() => deploySkill(t.config, "bad", "enterprise", { from: { layer: "project" } }))).toBe("deploy.invalid");
    writeSkill(writableRoot(t.config, "project"), "here");
    expect(codeOf(() => deploySkill(t.config, "here", "project"))).toBe("deploy.same");
  });
});
