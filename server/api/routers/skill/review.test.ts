// An administrator reviews a user's personal skills through the router (#15): listed and opened read-only, each
// look (the list too) on the audit record; anyone else is refused; a link in the users folder leads nowhere.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { SessionUser } from "../../../auth";
import { skillMd, writeSkillOnDisk } from "../../../services/skills/test-support/skills";
import { useSkillsTestHome } from "../../../test-support/test-home";
import { callerFor } from "../../../test-support/caller";

const h = useSkillsTestHome();

const as = (role: SessionUser["role"], id = `${role}-1`): SessionUser => ({ id, email: `${id}@x.io`, name: "", role });
const caller = (user: SessionUser | null) => callerFor(h, user);

describe("an administrator reviews personal skills", () => {
  beforeEach(() => {
    writeSkillOnDisk(path.join(h.dataHome.home, "users/ann/skills/ann-notes"), { "SKILL.md": skillMd("ann-notes"), "references/a.md": "ref\n", "scripts/x.sh": "echo hi\n" });
    writeSkillOnDisk(path.join(h.dataHome.projectRoot, ".omniforge/skills/shared-one"), { "SKILL.md": skillMd("shared-one") });
  });

  it("lists only that user's personal skills, opens one read-only, and every open is audited", async () => {
    const admin = caller(as("admin", "root"));
    const list = await admin.skill.list({ owner: "ann" });
    expect(list.rows.map((r) => [r.layer, r.name, r.ref.ownerId])).toEqual([["personal", "ann-notes", "ann"]]);
    const ref = list.rows[0]!.ref;
    const info = await admin.skill.info({ ref });
    expect(info).toMatchObject({ name: "ann-notes", canWrite: false, status: "active" });
    expect((await admin.skill.readFile({ ref, path: "SKILL.md" })).text).toContain("name: ann-notes");
    await admin.skill.info({ ref });
    const opened = h.audit.events.filter((e) => e.type === "personal_skill_opened");
    expect(opened).toHaveLength(4);
    // The list itself first: whose skills, through what, how many were shown.
    expect(opened[0]).toMatchObject({ actor: { id: "root" }, layer: "personal", details: { ownerId: "ann", procedure: "skill.list", listed: 1 } });
    expect(opened[0]!.skill).toBeUndefined();
    expect(opened[1]).toMatchObject({ actor: { id: "root" }, skill: "ann-notes", layer: "personal", details: { ownerId: "ann", canWrite: false } });
    const file = await admin.skill.readFile({ ref, path: "SKILL.md" });
    await expect(admin.skill.save({ ref, path: "SKILL.md", text: "x", baseDigest: file.digest })).rejects.toMatchObject({ code: "FORBIDDEN" });
    // The owner opening their own skill is not a review.
    await caller(as("author", "ann")).skill.info({ ref: { layer: "personal", skill: "ann-notes" } });
    await caller(as("author", "ann")).skill.list({});
    expect(h.audit.events.filter((e) => e.type === "personal_skill_opened")).toHaveLength(5);
  });

  it("every read of someone's personal skill is on the record with what was read, not only opening it", async () => {
    const admin = caller(as("admin", "root"));
    const ref = { layer: "personal" as const, skill: "ann-notes", ownerId: "ann" };
    await admin.skill.readFile({ ref, path: "scripts/x.sh" });
    await admin.skill.versions({ ref });
    await admin.skill.export({ ref });
    await admin.skill.disclosure({ ref });
    await admin.doctor.skill({ ref });
    const opened = h.audit.events.filter((e) => e.type === "personal_skill_opened");
    expect(opened.map((e) => [e.details?.procedure, e.details?.file])).toEqual([
      ["skill.readFile", "scripts/x.sh"],
      ["skill.versions", undefined],
      ["skill.export", undefined],
      ["skill.disclosure", undefined],
      ["doctor.skill", undefined],
    ]);
    for (const e of opened) expect(e).toMatchObject({ actor: { id: "root" }, skill: "ann-notes", layer: "personal", details: { ownerId: "ann" } });
    // The owner reading their own skill, every way, records nothing.
    const ann = caller(as("author", "ann"));
    const own = { layer: "personal" as const, skill: "ann-notes" };
    await ann.skill.readFile({ ref: own, path: "scripts/x.sh" });
    await ann.skill.versions({ ref: own });
    await ann.skill.export({ ref: own });
    await ann.skill.disclosure({ ref: own });
    expect(h.audit.events.filter((e) => e.type === "personal_skill_opened")).toHaveLength(5);
  });

  it("when the policy allows it, an administrator may also change a user's personal skill; the owner's draft stays theirs", async () => {
    const admin = caller(as("admin", "root"));
    const ref = { layer: "personal" as const, skill: "ann-notes", ownerId: "ann" };
    await admin.policy.change({ op: "setAdminsEditPersonal", allow: true });
    expect((await admin.skill.info({ ref })).canWrite).toBe(true);
    const file = await admin.skill.readFile({ ref, path: "SKILL.md" });
    expect(await admin.skill.save({ ref, path: "SKILL.md", text: file.text + "reviewed\n", baseDigest: file.digest })).toMatchObject({ status: "saved" });
    expect(h.audit.events.at(-1)).toMatchObject({ type: "skill_saved", actor: { id: "root" }, details: { ownerId: "ann" } });
    // Another author still may not; and switched off again, the admin is back to reading.
    await expect(caller(as("author", "bob")).skill.save({ ref, path: "SKILL.md", text: "x", baseDigest: null })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await admin.policy.change({ op: "setAdminsEditPersonal", allow: false });
    expect((await admin.skill.info({ ref })).canWrite).toBe(false);
    expect(await admin.policy.get()).not.toHaveProperty("adminsEditPersonal");
  });

  it("an author can neither list nor open another user's personal skills; refusals are logged", async () => {
    const bob = caller(as("author", "bob"));
    await expect(bob.skill.list({ owner: "ann" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(bob.skill.info({ ref: { layer: "personal", skill: "ann-notes", ownerId: "ann" } })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(h.audit.events.filter((e) => e.type === "access_denied")).toHaveLength(2);
    expect(h.audit.events.filter((e) => e.type === "personal_skill_opened")).toHaveLength(0);
  });

  it("a user's personal folder that is a link out of the data home is refused, for the admin too", async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-outside-"));
    try {
      writeSkillOnDisk(path.join(outside, "skills/leak"), { "SKILL.md": skillMd("leak") });
      fs.mkdirSync(path.join(h.dataHome.home, "users"), { recursive: true });
      fs.symlinkSync(outside, path.join(h.dataHome.home, "users/eve"));
      const admin = caller(as("admin", "root"));
      await expect(admin.skill.info({ ref: { layer: "personal", skill: "leak", ownerId: "eve" } })).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(admin.skill.readFile({ ref: { layer: "personal", skill: "leak", ownerId: "eve" }, path: "SKILL.md" })).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(admin.skill.list({ owner: "../etc" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
