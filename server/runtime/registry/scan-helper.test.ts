// A first listing on two threads (scan-helper.ts) must give the index the walk on one thread gives, entry for
// entry, over the cases the walk treats with care: nested skills, hidden and skipped folders, a lowercase skill.md,
// linked folders and linked SKILL.md files inside and outside the layer, empty and oversized SKILL.md files, a layer
// root that is itself a skill. Real folders, a real helper thread.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readUnit } from "../skill/walk-read";
import { type EntryOptions, type RootsScanner, rootUnits, SCAN_MAX_DEPTH, scanRead } from "./scan";
import { scannerWithHelper } from "./scan-helper";
import { SkillIndex } from "./skill-index";
import { tempLayers, type TempLayers, writeWalkCases } from "./test-support/registry";

let t: TempLayers;

beforeAll(() => {
  t = tempLayers();
  writeWalkCases(t);
}, 60_000);
afterAll(() => t.cleanup());

/** The scan of scan-helper.ts without its thread: every unit walked, read and checked here. */
const oneThread: RootsScanner = (roots, opts) =>
  roots.map((root, r) => {
    const cut = rootUnits(root, r, opts);
    return [cut.own, ...cut.units.map((u) => scanRead(root, readUnit({ maxDepth: SCAN_MAX_DEPTH, nested: opts.checks !== "frontmatter" }, u), opts))];
  });

const kinds: [string, EntryOptions][] = [
  ["full checks (the console's entries)", {}],
  ["a listing's checks (frontmatter, no digests of scripts)", { checks: "frontmatter", scriptDigests: false }],
];

describe.each(kinds)("a cold build with %s", (_, entries) => {
  const plain = () => SkillIndex.build(t.config, { entries }).entries();

  it("from units walked and read apart gives the same entries as one walk", () => {
    const expected = plain();
    expect(expected.length).toBe(252);
    // The cases are there: a refused link, a nested skill, the root skill, the files too small and too large to
    // load; the hidden and vendored ones are not.
    expect(expected.some((e) => e.dir.endsWith("escape") && e.status === "invalid")).toBe(true);
    expect(expected.some((e) => e.dir.endsWith(path.join("outer", "inner")))).toBe(true);
    expect(expected.some((e) => e.dir === path.join(t.project, ".agents", "skills"))).toBe(true);
    expect(expected.filter((e) => /(empty|huge)$/.test(e.dir)).map((e) => e.status)).toEqual(["invalid", "invalid"]);
    expect(expected.some((e) => e.dir.includes(".staging") || e.dir.includes("node_modules"))).toBe(false);
    expect(SkillIndex.build(t.config, { entries, scan: oneThread }).entries()).toEqual(expected);
  });

  it("with a helper thread gives the same entries as one walk", async () => {
    const expected = plain();
    const scan = scannerWithHelper(true);
    expect(scan).not.toBeNull();
    // Time for the helper to start (through tsx here), so it surely takes part.
    await new Promise((r) => setTimeout(r, 1500));
    try {
      expect(SkillIndex.build(t.config, { entries, scan: scan!.run }).entries()).toEqual(expected);
      expect(scan!.helped).toBeGreaterThan(0);
    } finally {
      scan!.close();
    }
  }, 30_000);
});
