// The catalog API names the git source of a skill that comes from one (repository, path, pinned commit), so an
// agent's machine and its audit can tell where a skill came from; other skills carry no source.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { removeTree } from "../../runtime/sources/checkout";
import { addSource } from "../../runtime/sources/sources";
import { skillMd, TestRepo } from "../../runtime/sources/test-support/sources";
import { useSkillsTestHome } from "../../test-support/test-home";
import { catalogWithFiles } from "./catalog-api";

const h = useSkillsTestHome();

describe("catalog API provenance", () => {
  it("a source's skill carries {name, url, path, commit}; a layer folder's skill carries none", async () => {
    const origin = new TestRepo(h.dir, "org");
    const commit = origin.write({ "skills/alpha/SKILL.md": skillMd("alpha", "Alpha from git. Use when asked for alpha.") }).commit("alpha");
    const local = path.join(h.dataHome.projectRoot, ".omniforge", "skills", "local-one");
    fs.mkdirSync(local, { recursive: true });
    fs.writeFileSync(path.join(local, "SKILL.md"), skillMd("local-one", "A project skill. Use when asked for local."));
    await addSource({ home: h.dataHome.home, env: process.env }, { name: "org", url: origin.bare, path: "skills" });
    try {
      const machine = { tokenId: "t", tokenName: "machine", userId: null, email: null, role: "viewer" as const, scopes: ["catalog:read" as const] };
      const { catalog } = await catalogWithFiles(h.db, h.dataHome, machine, {});
      const byName = new Map(catalog.skills.map((s) => [s.name, s]));
      expect(byName.get("alpha")).toMatchObject({ layer: "enterprise", source: { name: "org", url: origin.bare, path: "skills", commit } });
      expect(byName.get("local-one")).toBeDefined();
      expect(byName.get("local-one")!.source).toBeUndefined();
    } finally {
      removeTree(path.join(h.dataHome.home, "sources"));
    }
  });
});
