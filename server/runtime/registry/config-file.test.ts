// config.yaml (issue #14): checked whole with the key named, the project's file over the data home's, and what it
// sets applied by the one resolution (precedence project-first, disabled names, loading off).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigFileError, configContext, parseConfigFile, readSkillsConfig } from "./config-file";
import { resolve } from "./resolve";
import { SkillIndex } from "./skill-index";
import { tempLayers, writeSkill, type TempLayers } from "./test-support/registry";

let t: TempLayers;
afterEach(() => t?.cleanup());

describe("config.yaml", () => {
  it("names the wrong key, and reads the project's file over the data home's", () => {
    expect(() => parseConfigFile("skills:\n  enabled: maybe\n", "c.yaml")).toThrow(new ConfigFileError("c.yaml: skills.enabled: must be true or false"));
    expect(() => parseConfigFile("precedence: user-first\n", "c.yaml")).toThrow(/precedence: must be default or project-first/);
    expect(() => parseConfigFile("colour: red\n", "c.yaml")).toThrow(/colour: unknown key/);
    expect(() => parseConfigFile("listing:\n  budget: 5\n", "c.yaml")).toThrow(/listing.budget/);
    // Any name a skill loads with can be disabled, held as the loader reads it; an empty one is refused.
    expect(parseConfigFile('disabled_skills: [" café ", "with space", "../../etc"]\n', "c.yaml").disabledSkills).toEqual(["café", "with space", "../../etc"]);
    expect(() => parseConfigFile('disabled_skills: ["  "]\n', "c.yaml")).toThrow(/disabled_skills: must be a list of skill names \(1 to 1024 characters each\)/);
    t = tempLayers();
    fs.writeFileSync(path.join(t.home, "config.yaml"), "mode: prompt\nprecedence: project-first\n");
    fs.mkdirSync(path.join(t.project, ".omniforge"), { recursive: true });
    fs.writeFileSync(path.join(t.project, ".omniforge", "config.yaml"), "mode: orchestrated\ndisabled_skills: [old-notes]\n");
    expect(readSkillsConfig(t.home, t.project)).toMatchObject({ mode: "orchestrated", precedence: "project-first", disabledSkills: ["old-notes"] });
  });

  it("a named pipe or a device in place of config.yaml is an error naming it, not a read that never ends", () => {
    t = tempLayers();
    fs.mkdirSync(path.join(t.project, ".omniforge"), { recursive: true });
    const projectFile = path.join(t.project, ".omniforge", "config.yaml");
    execFileSync("mkfifo", [projectFile]);
    expect(() => readSkillsConfig(t.home, t.project)).toThrow(new ConfigFileError(`${projectFile} is a named pipe, not a regular file`));
    fs.rmSync(projectFile);
    fs.symlinkSync("/dev/zero", projectFile);
    expect(() => readSkillsConfig(t.home, t.project)).toThrow(new ConfigFileError(`${projectFile} is a device, not a regular file`));
    fs.rmSync(projectFile);
    expect(readSkillsConfig(t.home, t.project).sources).toEqual([]);
  });

  it("defaults: the scope context of a caller that names none, each key from its own file, checked by name", () => {
    expect(() => parseConfigFile("defaults:\n  region: eu\n", "c.yaml")).toThrow(/c\.yaml: defaults\.region: unknown key/);
    expect(() => parseConfigFile("defaults:\n  environment: [prod]\n", "c.yaml")).toThrow(/defaults\.environment: must be a name/);
    t = tempLayers();
    fs.writeFileSync(path.join(t.home, "config.yaml"), "defaults:\n  environment: dev\n  tenant: acme\n");
    fs.mkdirSync(path.join(t.project, ".omniforge"), { recursive: true });
    const projectFile = path.join(t.project, ".omniforge", "config.yaml");
    fs.writeFileSync(projectFile, "defaults:\n  environment: prod\n");
    const ctx = configContext(readSkillsConfig(t.home, t.project));
    expect(ctx.scopeDefaults).toEqual({ environment: "prod", tenant: "acme", from: { environment: projectFile, tenant: path.join(t.home, "config.yaml") } });
    writeSkill(path.join(t.project, ".omniforge", "skills"), "release", { extra: "scope:\n  environments: [prod]" });
    expect(resolve(SkillIndex.build(t.config), "release", ctx).active?.layer).toBe("project");
    expect(resolve(SkillIndex.build(t.config), "release", {}).active).toBeNull();
  });

  it("precedence project-first lets the project beat the user's own skill (enterprise still wins), and says why", () => {
    t = tempLayers();
    writeSkill(path.join(t.home, "skills"), "review");
    writeSkill(path.join(t.project, ".omniforge", "skills"), "review");
    const index = SkillIndex.build(t.config);
    expect(resolve(index, "review").active?.layer).toBe("personal");
    const r = resolve(index, "review", configContext({ precedence: "project-first", sources: [] }));
    expect(r.active?.layer).toBe("project");
    expect(r.candidates.find((c) => c.entry.layer === "personal")!.reason).toMatch(/enterprise > project > personal > plugin \(precedence: project-first/);
    writeSkill(path.join(t.home, "enterprise", "skills"), "review");
    expect(resolve(SkillIndex.build(t.config), "review", { precedence: "project-first" }).active?.layer).toBe("enterprise");
  });

  it("disabled_skills and skills.enabled: false disable, with the reason", () => {
    t = tempLayers();
    writeSkill(path.join(t.project, ".omniforge", "skills"), "old-notes");
    const index = SkillIndex.build(t.config);
    expect(resolve(index, "old-notes", { disabledNames: ["old-notes"] }).candidates[0]).toMatchObject({ status: "disabled", reason: "disabled in config.yaml (disabled_skills)" });
    expect(resolve(index, "old-notes", { skillsEnabled: false }).active).toBeNull();
  });
});
