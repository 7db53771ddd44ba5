// priority.no-effect: seed 000 gives an enterprise override `priority: 1000`, but priority only orders
// definitions inside one layer; the doctor says so when no same-layer rival exists (real layer folders).
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { layerRivals, SkillIndex, writableRoot } from "../registry";
import { tempLayers, writeSkill, type TempLayers } from "../registry/test-support/registry";
import { doctorCatalog, doctorSkill } from "./index";

let t: TempLayers;
afterEach(() => t?.cleanup());

const codes = (r: { findings: { code: string }[] }) => r.findings.map((f) => f.code);

describe("priority.no-effect", () => {
  it("flags a priority with no rival of its name in its own layer, on the priority line", () => {
    t = tempLayers();
    const ent = writeSkill(writableRoot(t.config, "enterprise"), "data-handling", { extra: "priority: 1000" });
    writeSkill(writableRoot(t.config, "project"), "data-handling", { extra: "priority: 1" });
    const index = SkillIndex.build(t.config);
    const rivals = (s: { dir: string; name: string }) => layerRivals(index, s.dir, s.name);
    const r = doctorSkill(ent, { layerRivals: rivals });
    const f = r.findings.find((x) => x.code === "priority.no-effect");
    expect(f).toMatchObject({ severity: "low", file: "SKILL.md", line: 4, snippet: "priority: 1000" });
    expect(f!.message).toMatch(/priority: 1000 can never matter: no other definition of 'data-handling' is in this layer/);
    // The project one is alone in its layer too.
    const project = path.join(writableRoot(t.config, "project"), "data-handling");
    expect(codes(doctorSkill(project, { layerRivals: rivals }))).toContain("priority.no-effect");
  });

  it("says nothing when a same-layer rival exists, when no priority is set, or when the layers are unknown", () => {
    t = tempLayers();
    const a = writeSkill(writableRoot(t.config, "project"), "deploy", { extra: "priority: 5" });
    writeSkill(path.join(t.project, ".claude", "skills"), "deploy");
    const alone = writeSkill(writableRoot(t.config, "project"), "notes");
    const index = SkillIndex.build(t.config);
    const rivals = (s: { dir: string; name: string }) => layerRivals(index, s.dir, s.name);
    expect(layerRivals(index, a, "deploy")).toBe(1);
    expect(codes(doctorSkill(a, { layerRivals: rivals }))).not.toContain("priority.no-effect");
    expect(codes(doctorSkill(alone, { layerRivals: rivals }))).not.toContain("priority.no-effect");
    const solo = writeSkill(path.join(t.base, "loose"), "solo", { extra: "priority: 3" });
    expect(codes(doctorSkill(solo))).not.toContain("priority.no-effect");
    expect(codes(doctorCatalog([solo], { layerRivals: rivals }).skills[0]!)).not.toContain("priority.no-effect");
  });
});
