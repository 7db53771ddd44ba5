// The registry over real public skills (shared/fixtures/real-skills), linked in as the personal layer.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeNeeding, sharedDir, sharedFixture } from "../../test-support/needs";
import { BodyCache } from "./body";
import { resolve, resolveAll } from "./resolve";
import { SkillIndex } from "./skill-index";
import { tempLayers, type TempLayers } from "./test-support/registry";

const real = path.join(sharedDir, "fixtures", "real-skills");

describeNeeding(sharedFixture("fixtures/real-skills"), "registry over the real skills", () => {
  let t: TempLayers;
  let index: SkillIndex;
  let expected: string[];
  beforeAll(() => {
    t = tempLayers();
    fs.symlinkSync(real, path.join(t.home, "skills"));
    index = new SkillIndex(t.config, { bodyCache: new BodyCache() });
    index.rebuild({ cold: true });
    expected = (fs.readdirSync(real, { recursive: true }) as string[])
      .map(String)
      .filter((p) => path.basename(p) === "SKILL.md")
      .map((p) => path.join(t.home, "skills", path.dirname(p)))
      .sort();
  });
  afterAll(() => t.cleanup());

  it("lists every SKILL.md folder, nested ones included, in the personal layer", () => {
    expect(index.entries().map((e) => e.dir).sort()).toEqual(expected);
    expect(index.entries().every((e) => e.layer === "personal")).toBe(true);
    expect(index.definitions("qdrant-tenant-scaling")[0]?.dir).toMatch(/qdrant-scaling\/scaling-data-volume\/tenant-scaling$/); // nested two levels inside another skill
  });

  it("every definition loads under the omniforge rules and its body loads on activation", () => {
    for (const e of index.entries()) {
      expect(e.loadable, e.dir).toBe(true);
      expect(e.description.length, e.dir).toBeGreaterThan(0);
      expect(index.loadBody(e).body.length, e.dir).toBeGreaterThan(0);
    }
  });

  it("two folders with the same name in one layer: the first folder wins, with a warning", () => {
    const r = resolve(index, "skill-creator");
    expect(r.candidates).toHaveLength(2);
    expect(r.active?.dir).toContain("anthropics__skills");
    expect(r.candidates[1]!.status).toBe("shadowed");
    expect(r.warnings[0]).toContain("equal priority");
    expect(resolveAll(index).skills).toHaveLength(expected.length - 1);
  });
});
