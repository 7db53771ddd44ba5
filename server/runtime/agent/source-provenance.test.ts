// A skill served from a git source carries its provenance into the audit of its activation (#39: "provenance
// everywhere"): the repository, the sub-path and the pinned commit, so a row says which commit an agent followed.
// A skill of a layer's own folder carries none.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MemoryAuditSink } from "../audit/events";
import { SkillIndex } from "../registry/skill-index";
import { removeTree } from "../sources/checkout";
import { addSource } from "../sources/sources";
import { skillMd, TestRepo } from "../sources/test-support/sources";
import { runAgent } from "./loop";
import { OfflineProvider } from "./offline";

let dir: string;
beforeEach(() => void (dir = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-provenance-"))));
afterEach(() => {
  removeTree(path.join(dir, "home", "sources"));
  fs.rmSync(dir, { recursive: true, force: true });
});

async function activationOf(index: SkillIndex, request: string) {
  const audit = new MemoryAuditSink();
  await runAgent({ request, mode: "tool", provider: new OfflineProvider(), skills: { index }, audit, scratchDir: path.join(dir, "scratch"), sessionId: "s", userId: "ann", stepLimit: 1 });
  return audit.events.find((e) => e.type === "skill_activated");
}

describe("provenance in the audit", () => {
  it("skill_activated names the source, sub-path and commit of a skill from git, and nothing for a layer's own skill", async () => {
    const home = path.join(dir, "home");
    const own = path.join(home, "enterprise", "skills", "weekly-report");
    fs.mkdirSync(own, { recursive: true });
    fs.writeFileSync(path.join(own, "SKILL.md"), skillMd("weekly-report", "Writes the weekly status report. Use when asked for the weekly report."));
    const origin = new TestRepo(dir, "org");
    const commit = origin.write({ "skills/invoice-check/SKILL.md": skillMd("invoice-check", "Checks supplier invoices against purchase orders. Use for invoice checks.") }).commit("one");
    await addSource({ home, env: process.env }, { name: "org", url: origin.bare, path: "skills" });
    const index = SkillIndex.build({ home, projectRoot: path.join(dir, "project") });

    const fromGit = await activationOf(index, "check this supplier invoice against the purchase orders");
    expect(fromGit).toMatchObject({ skill: "invoice-check", details: { source: { name: "org", url: origin.bare, path: "skills", commit } } });
    const local = await activationOf(index, "write the weekly status report");
    expect(local?.skill).toBe("weekly-report");
    expect(local?.details).not.toHaveProperty("source");
  });
});
