import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { MemoryAuditSink } from "../../runtime/audit/events";
import { changePolicy } from "../governance/policy-change";
import { effectivePolicy } from "../policy/store";
import { listSkills, saveFile, readSkillFile } from "../skills";
import { skillMd, writeSkillOnDisk } from "../skills/test-support/skills";
import { useSkillsTestHome } from "../../test-support/test-home";
import { indexFor, refreshAll } from "./catalog";
import { resolveCached } from "./resolution";

const h = useSkillsTestHome();
beforeEach(() => {
  const root = path.join(h.dataHome.projectRoot, ".omniforge/skills");
  for (const n of ["alpha", "beta", "gamma"]) writeSkillOnDisk(path.join(root, n), { "SKILL.md": skillMd(n) });
});

const statusOf = async (ctx: ReturnType<typeof h.ctx>, name: string) => (await listSkills(ctx, {})).rows.find((r) => r.name === name)?.status;

describe("resolution cache", () => {
  it("resolves once per index version and context, not once per request", async () => {
    const index = await indexFor("author-1", h.dataHome);
    const ctx = { policy: await effectivePolicy(h.db) };
    const first = resolveCached(index, ctx);
    expect(resolveCached(index, { policy: await effectivePolicy(h.db) })).toBe(first);
    // Another context (a what-if environment) is resolved on its own.
    expect(resolveCached(index, { ...ctx, environment: "prod" })).not.toBe(first);
  });

  it("a policy change is seen by the very next request", async () => {
    const author = h.ctx(h.actor("author"));
    expect(await statusOf(author, "beta")).toBe("active");
    await changePolicy(h.db, { op: "block", name: "beta" }, { audit: new MemoryAuditSink(), actor: { id: "admin-1", email: "admin-1@x.io" } });
    expect(await statusOf(author, "beta")).toBe("blocked");
    await changePolicy(h.db, { op: "unblock", name: "beta" }, { audit: new MemoryAuditSink(), actor: { id: "admin-1", email: "admin-1@x.io" } });
    expect(await statusOf(author, "beta")).toBe("active");
  });

  it("a file change is seen by the very next request (console save and a write on disk)", async () => {
    const author = h.ctx(h.actor("author"));
    const rows = (await listSkills(author, {})).rows;
    expect(rows.find((r) => r.name === "gamma")?.description).toBe("Does gamma things. Use when gamma is needed.");
    const ref = rows.find((r) => r.name === "gamma")!.ref;
    const file = readSkillFile(author, ref, "SKILL.md");
    await saveFile(author, { ref, path: "SKILL.md", text: skillMd("gamma", "Gamma, changed in the console. Use it."), baseDigest: file.digest });
    expect((await listSkills(author, {})).rows.find((r) => r.name === "gamma")?.description).toBe("Gamma, changed in the console. Use it.");

    // Outside the console (git, another editor): the watcher's refresh makes it the next index version.
    const dir = path.join(h.dataHome.projectRoot, ".omniforge/skills/alpha");
    fs.writeFileSync(path.join(dir, "SKILL.md"), "no frontmatter any more\n");
    refreshAll([dir]);
    expect(await statusOf(author, "alpha")).toBe("invalid");
  });
});
