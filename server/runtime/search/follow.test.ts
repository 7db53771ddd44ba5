// The search follows the registry index: skills added, edited and removed on disk are found (or not) after the
// index refreshes, without rebuilding the search. And it only ever returns what resolution lets a run use.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { searchOf } from "../agent/skill-source";
import { resolveAll } from "../registry/resolve";
import { SkillIndex } from "../registry/skill-index";
import { tempLayers, writeSkill, type TempLayers } from "../registry/test-support/registry";
import { SEARCH_SLICE, searchFor, searchReady } from "./follow";

let t: TempLayers | undefined;
afterEach(() => {
  t?.cleanup();
  t = undefined;
});

describe("the search follows the registry", () => {
  it("finds a skill added on disk, reflects an edit of its description and body, forgets a removed one", () => {
    t = tempLayers();
    const root = path.join(t.project, ".claude", "skills");
    writeSkill(root, "git-notes", { description: "Write git commit notes from staged changes." });
    const index = SkillIndex.build(t.config);
    const search = searchFor(index);
    expect(searchFor(index)).toBe(search);
    expect(search.search("convert a spreadsheet to json").hits.map((h) => h.name)).not.toContain("sheet-tools");

    const dir = writeSkill(root, "sheet-tools", { description: "Convert xlsx workbooks to JSON.", body: "# Sheets\n\n## Pivot tables\n\nBuild pivot tables.\n" });
    index.refresh([dir]);
    const found = search.search("convert a spreadsheet to json");
    expect(found.hits[0]!.name).toBe("sheet-tools");
    expect(found.hits[0]!.why).toMatch(/'spreadsheet' \(as 'xlsx'/);
    expect(search.search("pivot tables").hits[0]!.why).toMatch(/headings match 'pivot', 'tables'/);

    fs.writeFileSync(path.join(dir, "SKILL.md"), "---\nname: sheet-tools\ndescription: Render invoices as PDF.\n---\n# Invoices\n");
    index.refresh([path.join(dir, "SKILL.md")]);
    expect(search.search("pivot tables").hits.map((h) => h.name)).not.toContain("sheet-tools");
    expect(search.search("render an invoice pdf").hits[0]!.name).toBe("sheet-tools");

    fs.rmSync(dir, { recursive: true });
    index.refresh([dir]);
    expect(search.search("render an invoice pdf").hits.map((h) => h.name)).not.toContain("sheet-tools");
    expect(search.size).toBe(1);
  });
});

describe("the search built ahead, in slices (issue 35 item 5)", () => {
  it("reads the catalog a slice per turn of the event loop, follows changes made meanwhile, and is then the one searchFor keeps", async () => {
    t = tempLayers();
    const root = path.join(t.project, ".claude", "skills");
    const n = SEARCH_SLICE * 4;
    for (let i = 0; i < n; i++) writeSkill(root, `tool-${i}`, { description: `Handles chore number ${i} of the release.` });
    const index = SkillIndex.build(t.config);
    // Turns of the event loop that pass while the search is built: none when it is built in one go.
    let turns = 0;
    let built = false;
    const tick = () => {
      if (built) return;
      turns++;
      // A skill removed and one added on disk while the build is half way: the index refreshes, the search follows.
      if (turns === 2) {
        fs.rmSync(path.join(root, `tool-${n - 1}`), { recursive: true });
        writeSkill(root, "late-comer", { description: "Waters the office plants." });
        index.refresh([path.join(root, `tool-${n - 1}`), path.join(root, "late-comer")]);
      }
      setImmediate(tick);
    };
    setImmediate(tick);
    const pending = searchReady(index);
    expect(searchReady(index)).toBe(pending); // one build for every caller
    const search = await pending;
    built = true;
    expect(turns).toBeGreaterThanOrEqual(3);
    expect(search.size).toBe(n);
    expect(search.search("water the plants").hits[0]?.name).toBe("late-comer");
    expect(search.search(`chore number ${n - 1}`).hits.map((h) => h.name)).not.toContain(`tool-${n - 1}`);
    expect(searchFor(index)).toBe(search);
    expect(await searchReady(index)).toBe(search);
  });
});

describe("search obeys resolution: policy, scope and layers", () => {
  it("never finds a blocked, disabled, out-of-scope or shadowed definition", () => {
    t = tempLayers();
    const project = path.join(t.project, ".omniforge", "skills");
    const personal = path.join(t.home, "skills");
    writeSkill(project, "pdf-fill", { description: "Fill PDF forms." });
    writeSkill(project, "pdf-secret", { description: "Fill PDF forms with secrets from the vault." });
    writeSkill(project, "pdf-prod", { description: "Fill PDF forms in production.", extra: "scope:\n  environments: [production]" });
    writeSkill(project, "pdf-off", { description: "Fill PDF forms, switched off." });
    writeSkill(project, "pdf-mine", { description: "Fill PDF forms, project copy." });
    writeSkill(personal, "pdf-mine", { description: "Fill PDF forms, my own copy." });
    const index = SkillIndex.build(t.config);
    const ctx = { environment: "staging", policy: { blockedNames: ["pdf-secret"], disabled: [{ name: "pdf-off", layer: "project" as const }] } };
    const entries = resolveAll(index, ctx).skills;
    const search = searchOf({ index, context: ctx }, entries);
    const hits = search("fill the pdf form", { limit: 20 }).hits;
    expect(hits.map((h) => h.name).sort()).toEqual(["pdf-fill", "pdf-mine"]);
    expect(hits.find((h) => h.name === "pdf-mine")!.id).toBe(path.join(personal, "pdf-mine"));
    // Without the policy and in production, they are found: the filter is resolution, not the words.
    const open = resolveAll(index, { environment: "production" }).skills;
    expect(searchOf({ index, context: { environment: "production" } }, open)("fill the pdf form", { limit: 20 }).hits.map((h) => h.name).sort()).toEqual(["pdf-fill", "pdf-mine", "pdf-off", "pdf-prod", "pdf-secret"]);
  });
});
