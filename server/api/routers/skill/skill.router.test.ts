import fs from "node:fs";
import path from "node:path";
import { TRPCError } from "@trpc/server";
import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import type { SessionUser } from "../../../auth";
import { useSkillsTestHome } from "../../../test-support/test-home";
import { callerFor } from "../../../test-support/caller";
import { afterWrite } from "../../../services/skills/context";

const h = useSkillsTestHome();

const as = (role: SessionUser["role"], id = `${role}-1`): SessionUser => ({ id, email: `${id}@x.io`, name: "", role });
const caller = (user: SessionUser | null) => callerFor(h, user);

describe("skill router", () => {
  it("needs a session", async () => {
    await expect(caller(null).skill.list({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("an author creates, edits and saves; a second stale save gets the conflict with both texts and a diff", async () => {
    const author = caller(as("author"));
    const { ref } = await author.skill.create({ layer: "project", name: "router-skill", description: "Router test. Use it.", template: "basic" });
    const file = await author.skill.readFile({ ref, path: "SKILL.md" });
    const first = await author.skill.save({ ref, path: "SKILL.md", text: file.text + "one\n", baseDigest: file.digest, message: "first" });
    expect(first.status).toBe("saved");
    const second = await author.skill.save({ ref, path: "SKILL.md", text: file.text + "two\n", baseDigest: file.digest });
    expect(second).toMatchObject({ status: "conflict", path: "SKILL.md" });
    if (second.status !== "conflict") throw new Error("unreachable");
    expect(second.theirs).toContain("one");
    expect(second.yours).toContain("two");
    expect(second.diff).toMatch(/^-one$/m);
    const versions = await author.skill.versions({ ref });
    expect(versions.map((v) => [v.action, v.message])).toEqual([
      ["save", "first"],
      ["create", "created from template basic"],
    ]);
    const v = await caller(as("viewer")).skill.version({ id: versions[1]!.id });
    expect(v.content).toBe(file.text);
    const list = await author.skill.list({ q: "router" });
    expect(list.rows[0]).toMatchObject({ name: "router-skill", status: "active", lastChange: { by: "author-1@x.io", source: "console" } });
  });

  it("a save ends its author's draft of that file: the next open offers nothing older than the save", async () => {
    const author = caller(as("author"));
    const { ref } = await author.skill.create({ layer: "project", name: "drafted", description: "Drafted. Use it.", template: "basic" });
    const file = await author.skill.readFile({ ref, path: "SKILL.md" });
    // Left unsaved in an earlier visit; this visit saves other text before any draft of its own was sent.
    await author.draft.save({ ref, path: "SKILL.md", text: file.text + "old line\n", baseDigest: file.digest });
    await author.draft.save({ ref, path: "references/notes.md", text: "notes", baseDigest: null });
    const other = caller(as("author", "author-2"));
    await other.draft.save({ ref, path: "SKILL.md", text: "theirs", baseDigest: file.digest });
    expect((await author.skill.save({ ref, path: "SKILL.md", text: file.text + "new line\n", baseDigest: file.digest })).status).toBe("saved");
    expect((await author.draft.list({ ref })).map((d) => d.path)).toEqual(["references/notes.md"]);
    expect((await other.draft.list({ ref })).map((d) => d.text)).toEqual(["theirs"]); // only the saver's own draft
  });

  it("a viewer's direct save call is refused with FORBIDDEN and logged; nothing changes", async () => {
    const author = caller(as("author"));
    const { ref } = await author.skill.create({ layer: "project", name: "guarded", description: "Guarded. Use it.", template: "basic" });
    const viewer = caller(as("viewer"));
    const file = await viewer.skill.readFile({ ref, path: "SKILL.md" });
    const err = await viewer.skill.save({ ref, path: "SKILL.md", text: "pwned", baseDigest: file.digest }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCError);
    expect((err as TRPCError).code).toBe("FORBIDDEN");
    expect(h.audit.events.at(-1)).toMatchObject({ type: "access_denied", details: { procedure: "skill.save", role: "viewer" } });
    expect((await viewer.skill.readFile({ ref, path: "SKILL.md" })).text).toBe(file.text);
    expect((await viewer.skill.info({ ref })).canWrite).toBe(false);
    expect((await viewer.skill.targets()).layers).toEqual([]);
    await expect(viewer.skill.delete({ ref })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("info says when a skill loads despite errors (lenient loading): status active, validity errors", async () => {
    const author = caller(as("author"));
    const { ref } = await author.skill.create({ layer: "project", name: "lenient", description: "Lenient. Use it.", template: "basic" });
    const clean = await author.skill.info({ ref });
    expect([clean.status, clean.validity]).toEqual(["active", "ok"]);
    const file = await author.skill.readFile({ ref, path: "SKILL.md" });
    // Written on disk (as a git pull would): the console refuses to save a name that breaks the rule (issue #35).
    const skillFile = path.join(h.dataHome.projectRoot, ".omniforge", "skills", "lenient", "SKILL.md");
    fs.writeFileSync(skillFile, file.text!.replace("name: lenient", "name: Lenient_Skill"));
    afterWrite([skillFile]);
    const broken = await author.skill.info({ ref });
    expect([broken.status, broken.validity]).toEqual(["active", "errors"]);
  });

  it("the editor's live check calls a link that leaves the skill by a symlink a path escape, not a missing file", async () => {
    const author = caller(as("author"));
    const { ref } = await author.skill.create({ layer: "project", name: "linked-out", description: "Linked out. Use it.", template: "basic" });
    const dir = path.join(h.dataHome.projectRoot, ".omniforge", "skills", "linked-out");
    fs.mkdirSync(path.join(dir, "references"), { recursive: true });
    fs.symlinkSync("/etc/passwd", path.join(dir, "references", "passwd.md"));
    const text = "---\nname: linked-out\ndescription: Linked out. Use it.\n---\nRead [the users](references/passwd.md).\n";
    const r = await author.skill.check({ ref, text });
    expect(r.diagnostics.map((d) => d.code)).toContain("body.path-escape");
    expect(r.diagnostics.map((d) => d.code)).not.toContain("body.missing-reference");
    expect(r.links).toEqual([{ href: "references/passwd.md", kind: "outside" }]);
  });

  it("bad paths are BAD_REQUEST, unknown skills NOT_FOUND, never a 500", async () => {
    const author = caller(as("author"));
    const { ref } = await author.skill.create({ layer: "project", name: "paths", description: "Paths. Use it.", template: "basic" });
    await expect(author.skill.readFile({ ref, path: "../../../etc/passwd" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(author.skill.createFile({ ref, path: "/abs.md", kind: "file" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(author.skill.readFile({ ref: { layer: "project", skill: "nope" }, path: "SKILL.md" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("imports a zip sent as base64 (dry run first) and exports it back", async () => {
    const author = caller(as("author"));
    const zip = zipSync({ "zipped/SKILL.md": strToU8("---\nname: zipped\ndescription: From a zip. Use it.\n---\nBody\n") });
    const base64 = Buffer.from(zip).toString("base64");
    const dry = await author.skill.import({ layer: "personal", fileName: "zipped.zip", base64, dryRun: true });
    expect(dry).toMatchObject({ imported: false, valid: true, folder: "zipped" });
    const done = await author.skill.import({ layer: "personal", fileName: "zipped.zip", base64 });
    expect(done.imported).toBe(true);
    const out = await author.skill.export({ ref: done.ref });
    expect(out.fileName).toBe("zipped.zip");
    expect(Buffer.from(out.base64, "base64").subarray(0, 2).toString()).toBe("PK");
    const slip = Buffer.from(zipSync({ "x/SKILL.md": strToU8("---\nname: x\ndescription: y\n---\n"), "x/../../y": strToU8("z") })).toString("base64");
    await expect(author.skill.import({ layer: "project", fileName: "x.zip", base64: slip })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("vocabulary lists the validator's fields and tool names", async () => {
    const voc = await caller(as("viewer")).skill.vocabulary();
    expect(voc.fields.map((f) => f.name)).toEqual(expect.arrayContaining(["name", "description", "allowed-tools", "context"]));
    expect(voc.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["Read", "Write", "Edit", "Bash", "Glob", "Grep", "read_file"]));
  });
});
