// The console's first build of an index, a slice per turn of the event loop (build-in-turns.ts): the index it gives
// is the one a build in one go gives, entry for entry, and other work runs between its slices. Real folders.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildInTurns, rebuildInTurns, REGISTRY_SLICE } from "./build-in-turns";
import type { EntryOptions } from "./scan";
import { SkillIndex } from "./skill-index";
import { tempLayers, type TempLayers, writePlugin, writeSkill, writeWalkCases } from "./test-support/registry";

let t: TempLayers;
beforeAll(() => {
  t = tempLayers();
  writeWalkCases(t);
}, 60_000);
afterAll(() => t.cleanup());

/** Runs `work` while a setImmediate chain counts the turns of the event loop it leaves to others. */
async function countingTurns<T>(work: () => Promise<T>, onTurn?: (turn: number) => void): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let done = false;
  const tick = () => {
    if (done) return;
    turns++;
    onTurn?.(turns);
    setImmediate(tick);
  };
  setImmediate(tick);
  try {
    const value = await work();
    return { value, turns };
  } finally {
    done = true;
  }
}

const kinds: [string, EntryOptions][] = [
  ["full checks (the console's entries)", {}],
  ["a listing's checks", { checks: "frontmatter", scriptDigests: false }],
];

describe.each(kinds)("a build in turns with %s", (_, entries) => {
  it("gives the entries of a build in one go, and leaves the event loop a turn after every slice", async () => {
    const expected = SkillIndex.build(t.config, { entries }).entries();
    expect(expected.length).toBe(252);
    const { value: index, turns } = await countingTurns(() => buildInTurns(t.config, { entries }));
    expect(index.entries()).toEqual(expected);
    expect(index.lastRebuild).toMatchObject({ entries: 252, reused: 0 });
    // 249 folders checked (the rest are refused links): a turn after each slice of 25 but the last.
    expect(turns).toBeGreaterThanOrEqual(Math.floor(249 / REGISTRY_SLICE) - 1);
  });
});

describe("a build in turns", () => {
  it("takes over another user's unchanged entries, reads a changed one again, and still leaves turns", async () => {
    const donor = SkillIndex.build(t.config);
    const bob = { ...t.config, userId: "bob" };
    const changed = path.join(t.home, "enterprise", "skills", "group-0", "plain-1", "SKILL.md");
    const before = fs.readFileSync(changed, "utf8");
    fs.writeFileSync(changed, before.replace("Follow these steps.", "Follow these steps, carefully."));
    try {
      const { value: index, turns } = await countingTurns(() => buildInTurns(bob, { reuse: donor }));
      expect(index.entries()).toEqual(SkillIndex.build(bob).entries());
      const plain1 = index.entries().find((e) => e.name === "plain-1")!;
      expect(plain1).not.toBe(donor.entries().find((e) => e.name === "plain-1"));
      const plain3 = index.entries().find((e) => e.name === "plain-3")!;
      expect(plain3).toBe(donor.entries().find((e) => e.name === "plain-3"));
      // Only the changed SKILL.md is read again (bob has no personal folder; the CLI user's is not his).
      expect(index.lastRebuild!.parsed).toBe(1);
      expect(turns).toBeGreaterThanOrEqual(Math.floor(249 / REGISTRY_SLICE) - 1);
    } finally {
      fs.writeFileSync(changed, before);
    }
  });

  it("a plugin installed while it runs is in the index it gives", async () => {
    let late = "";
    const { value: index } = await countingTurns(
      () => buildInTurns(t.config),
      (turn) => {
        if (turn === 2) late = writeSkill(writePlugin(t.home, "late", "2026-02-01T00:00:00.000Z"), "late-one");
      },
    );
    try {
      expect(late).not.toBe("");
      expect(index.entries().find((e) => e.name === "late-one")).toMatchObject({ layer: "plugin", plugin: "late", loadable: true });
      expect(index.entries()).toEqual(SkillIndex.build(t.config).entries());
    } finally {
      fs.rmSync(path.join(t.home, "plugins", "late"), { recursive: true, force: true });
    }
  });
});

describe("a rescan in turns (the timer's, on a shared data home)", () => {
  it("takes in what changed on disk as a rebuild in one go does, reading only that, and leaves turns", async () => {
    const index = SkillIndex.build(t.config);
    const file = path.join(t.home, "enterprise", "skills", "group-0", "plain-1", "SKILL.md");
    const before = fs.readFileSync(file, "utf8");
    fs.writeFileSync(file, `${before}\nSlowly.\n`);
    const added = writeSkill(path.join(t.home, "enterprise", "skills"), "rescan-new");
    const heard: string[] = [];
    index.onChange((c) => heard.push(...c.added.map((e) => `added ${e.name}`), ...c.changed.map((e) => `changed ${e.name}`), ...c.removed.map((e) => `removed ${e.name}`)));
    try {
      const { value: stats, turns } = await countingTurns(() => rebuildInTurns(index));
      expect(index.entries()).toEqual(SkillIndex.build(t.config).entries());
      expect(heard.sort()).toEqual(["added rescan-new", "changed plain-1"]);
      expect(stats).toMatchObject({ entries: 253, parsed: 2 });
      expect(turns).toBeGreaterThanOrEqual(Math.floor(249 / REGISTRY_SLICE) - 1);
    } finally {
      fs.writeFileSync(file, before);
      fs.rmSync(added, { recursive: true, force: true });
    }
  });

  it("keeps a save this server took in while it ran, even in a folder the walk had already passed", async () => {
    const index = SkillIndex.build(t.config);
    const dir = path.join(t.home, "enterprise", "skills", "group-0", "plain-1");
    const file = path.join(dir, "SKILL.md");
    const before = fs.readFileSync(file, "utf8");
    let saved = false;
    try {
      await countingTurns(
        () => rebuildInTurns(index),
        (turn) => {
          // A turn after the walk's first slices: group-0 is behind it. The save refreshes the index, as the console's does.
          if (turn !== 4) return;
          fs.writeFileSync(file, `${before}\nSaved meanwhile.\n`);
          index.refresh([dir]);
          saved = true;
        },
      );
      expect(saved).toBe(true);
      expect(index.loadBody(index.entries().find((e) => e.dir === dir)!).body).toContain("Saved meanwhile.");
      expect(index.entries()).toEqual(SkillIndex.build(t.config).entries());
    } finally {
      fs.writeFileSync(file, before);
    }
  });
});

describe("a rebuild over folders where nothing changed", () => {
  it("reports no change, refused links and unreadable files included (each rescan would otherwise wake every listener)", async () => {
    const index = SkillIndex.build(t.config);
    const heard: string[] = [];
    index.onChange((c) => heard.push(...[...c.added, ...c.changed, ...c.removed].map((e) => e.name)));
    index.rebuild();
    await rebuildInTurns(index);
    expect(heard).toEqual([]);
  });
});
