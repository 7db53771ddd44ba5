// The Sources page's marketplace card: after `omniforge publish marketplace` (the real bin, on the console's data
// home) an admin sees when and where it was published, its commit and versions, and exactly which skills the catalog
// serves differently since; the publication is audited; only admins may ask.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { selectSql } from "../../../../db/test-support/rows";
import type { SessionUser } from "../../../auth";
import { govHome } from "../../../services/governance/test-support/governance";
import { git } from "../../../runtime/sources/test-support/sources";
import { callerFor } from "../../../test-support/caller";
import { useTestHome } from "../../../test-support/test-home";

const h = useTestHome(govHome);
const as = (role: SessionUser["role"]): SessionUser => ({ id: `${role}-id`, email: `${role}@x.io`, name: "", role });
const repo = path.resolve(import.meta.dirname, "../../../..");
const identity = { GIT_AUTHOR_NAME: "Publisher", GIT_AUTHOR_EMAIL: "p@example.com", GIT_COMMITTER_NAME: "Publisher", GIT_COMMITTER_EMAIL: "p@example.com" };

function publish(out: string): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(repo, "bin/omniforge.mjs"), "publish", "marketplace", "--out", out, "--home", h.dataHome.home, "--project", h.dataHome.projectRoot],
      { cwd: h.dataHome.home, encoding: "utf8", env: { ...process.env, ...identity, OMNIFORGE_HOME: "", HOME: h.dataHome.home, OMNIFORGE_CACHE_DIR: "off", GIT_CONFIG_GLOBAL: "/dev/null" }, timeout: 120_000 },
      (e, stdout, stderr) => resolve({ code: e ? Number(e.code ?? 1) : 0, out: stdout, err: stderr }),
    );
  });
}

describe("sources.publishState", () => {
  it("says nothing was published, then what was and what changed since; audited; admins only", async () => {
    const admin = callerFor(h, as("admin"));
    await expect(callerFor(h, as("author")).sources.publishState()).rejects.toMatchObject({ code: "FORBIDDEN" });
    h.skill("enterprise", "release-notes");
    const style = h.skill("enterprise", "team-style");
    expect(await admin.sources.publishState()).toEqual({ last: null, since: null });

    const out = path.join(h.dataHome.home, "marketplace-out");
    fs.mkdirSync(out);
    git(out, ["init", "-q"]);
    const r = await publish(out);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const commit = /committed ([0-9a-f]{12})/.exec(r.out)?.[1];
    expect(commit).toBeDefined();

    const first = await admin.sources.publishState();
    expect(first.last).toMatchObject({ out, marketplace: "omniforge", commit, plugins: [{ name: "enterprise", version: "1.0.0", skills: 2 }] });
    expect(first.since).toEqual({ changed: [], added: [], removed: [] });

    fs.appendFileSync(path.join(style, "SKILL.md"), "\nOne more rule.\n");
    h.skill("enterprise", "onboarding");
    const later = await admin.sources.publishState();
    expect(later.since).toEqual({ changed: [{ plugin: "enterprise", skill: "team-style" }], added: [{ plugin: "enterprise", skill: "onboarding" }], removed: [] });

    const rows = await selectSql<{ actor: string; details: string }>(h.db, `SELECT actor_id AS actor, details FROM audit_events WHERE type = 'marketplace_published'`);
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.details)).toMatchObject({ marketplace: "omniforge", out, commit, plugins: [{ name: "enterprise", version: "1.0.0", changed: true }] });
  }, 120_000);
});
