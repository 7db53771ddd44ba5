// A watching index (the console's) follows a source moved from outside it, as `omniforge source update` does: the
// pinned checkout is a new folder and sources.json names it; the index must serve the new commit's skills.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeLayerConfig, SkillIndex } from "../registry";
import { addSource, rollbackSource, updateSource } from "./sources";
import { skillMd, TestRepo } from "./test-support/sources";

let dir: string;
let index: SkillIndex | null = null;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "src-watch-"));
});
afterEach(async () => {
  await index?.close();
  index = null;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Resolves once the index's entries say `name` has `description` (checked at every change it reports). */
function changedTo(ix: SkillIndex, name: string, description: string): Promise<void> {
  return new Promise((resolve) => {
    const check = () => ix.definitions(name).some((e) => e.description === description) && (off(), resolve());
    const off = ix.onChange(check);
    check();
  });
}

describe.each(["enterprise", "plugin"] as const)("a watching index and a %s-layer source moved from outside", (layer) => {
  it("serves the new commit after update and the old one after rollback", async () => {
    const home = path.join(dir, "home");
    const repo = new TestRepo(dir);
    repo.write({ "pdf/SKILL.md": skillMd("pdf", "Fills PDF forms. Use for PDF files.") });
    repo.commit("one");
    const ctx = { home, env: process.env };
    await addSource(ctx, { name: "org", url: `file://${repo.bare}`, layer });
    index = SkillIndex.build(makeLayerConfig({ home, projectRoot: path.join(dir, "project") }));
    await index.watch({ debounceMs: 10 });
    expect(index.definitions("pdf").map((e) => e.description)).toEqual(["Fills PDF forms. Use for PDF files."]);

    repo.write({ "pdf/SKILL.md": skillMd("pdf", "Fills and signs PDF forms. Use for PDF files.") });
    repo.commit("two");
    const updated = changedTo(index, "pdf", "Fills and signs PDF forms. Use for PDF files.");
    await updateSource(ctx, "org");
    await updated;
    const rolledBack = changedTo(index, "pdf", "Fills PDF forms. Use for PDF files.");
    await rollbackSource(ctx, "org");
    await rolledBack;
    expect(index.definitions("pdf")).toHaveLength(1);
  }, 60_000); // a busy host: git and the watcher's look at its targets take their time
});
