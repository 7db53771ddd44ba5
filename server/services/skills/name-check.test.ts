// The New-skill form's name check through the API, as the form calls it: it agrees with the catalog about policy
// (a name it calls available is never listed as blocked after creation), and every name it suggests is one it accepts.
import { describe, expect, it } from "vitest";
import type { SessionUser } from "../../auth";
import { useSkillsTestHome } from "../../test-support/test-home";
import { callerFor } from "../../test-support/caller";

const h = useSkillsTestHome();
const as = (role: SessionUser["role"], id = `${role}-1`): SessionUser => ({ id, email: `${id}@x.io`, name: "", role });

describe("the new-skill name check", () => {
  it("warns when policy blocks the name, by list, pattern or allowlist, with the catalog's own reason", async () => {
    const admin = callerFor(h, as("admin"));
    const author = callerFor(h, as("author"));
    await admin.policy.change({ op: "block", name: "release-notes" });
    await admin.policy.change({ op: "setForbiddenPatterns", patterns: ["secret"] });
    const check = (name: string) => author.skill.nameCheck({ layer: "personal", name });
    expect(await check("release-notes")).toEqual({
      ok: true,
      problems: [],
      warnings: [
        'release-notes is free in the personal layer, but blocked by policy: the name "release-notes" is on the block list: it would never be active. Choose another name, or ask an administrator.',
      ],
    });
    expect((await check("my-secret-notes")).warnings.join()).toContain('matches the forbidden pattern secret');
    expect(await check("weekly-notes")).toEqual({ ok: true, problems: [], warnings: [] });

    // Created anyway, the catalog lists it blocked for the same reason the check gave.
    const { ref } = await author.skill.create({ layer: "personal", name: "release-notes", description: "Drafts release notes. Use for releases.", template: "basic" });
    const row = (await author.skill.list({ q: "release-notes" })).rows.find((r) => r.name === ref.skill && r.layer === "personal");
    expect(row?.status).toBe("blocked");

    await admin.policy.change({ op: "setAllowlist", names: ["weekly-notes"] });
    expect((await check("weekly-notes")).warnings).toEqual([]);
    expect((await check("daily-notes")).warnings.join()).toContain("not on the allowlist");
  });

  it("suggests ASCII names, which the console then accepts", async () => {
    const author = callerFor(h, as("author"));
    const first = await author.skill.nameCheck({ layer: "project", name: "Émoji🚀" });
    expect(first.problems).toEqual([
      'name "Émoji🚀" must be lowercase: use "emoji".',
      'name "Émoji🚀" may only contain letters, digits and hyphens: try "emoji".',
    ]);
    expect(await author.skill.nameCheck({ layer: "project", name: "emoji" })).toMatchObject({ ok: true, problems: [] });
    expect((await author.skill.nameCheck({ layer: "project", name: "Café Notes" })).problems[0]).toBe('name "Café Notes" must be lowercase: use "cafe-notes".');
  });
});
