// The console's Sources: admin-only on the server, the runtime's add/update/rollback/remove over a real bare
// repository (file:// URL, the system git), each change audited with both commits and the admin, and the skill list
// of an index built before the change showing the new pin at once.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { execSql } from "../../../../db/test-support/rows";
import type { SessionUser } from "../../../auth";
import { govHome } from "../../../services/governance/test-support/governance";
import { skillMd, TestRepo } from "../../../runtime/sources/test-support/sources";
import { callerFor } from "../../../test-support/caller";
import { useTestHome } from "../../../test-support/test-home";

const h = useTestHome(govHome);
const as = (role: SessionUser["role"]): SessionUser => ({ id: `${role}-id`, email: `${role}@x.io`, name: "", role });

let repoDir: string;
let repo: TestRepo;
beforeEach(() => {
  repoDir = fs.mkdtempSync(path.join(os.tmpdir(), "srcui-"));
  repo = new TestRepo(repoDir);
  repo.write({ "skills/pdf/SKILL.md": skillMd("pdf", "Fills PDF forms. Use for PDF files."), "skills/xlsx/SKILL.md": skillMd("xlsx", "Reads spreadsheets. Use for xlsx files.") });
  repo.commit("two skills");
});
afterEach(() => fs.rmSync(repoDir, { recursive: true, force: true }));

const descriptionOf = async (name: string) => (await callerFor(h, as("admin")).skill.list({ q: name })).rows.find((r) => r.name === name)?.description;

describe("sources router", () => {
  it("an author or viewer can neither list nor change sources (FORBIDDEN, audited), and nothing is fetched", async () => {
    for (const role of ["author", "viewer"] as const) {
      const c = callerFor(h, as(role));
      await expect(c.sources.list({})).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(c.sources.add({ name: "org", url: `file://${repo.bare}` })).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(c.sources.update({ name: "org" })).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(c.sources.rollback({ name: "org" })).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(c.sources.remove({ name: "org" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    }
    expect(h.audit.events.filter((e) => e.type === "access_denied")).toHaveLength(10);
    expect(fs.existsSync(path.join(h.dataHome.home, "sources"))).toBe(false);
  });

  it("add, behind, update, rollback, remove: the skill list follows each pin at once, each step audited with both commits", async () => {
    const admin = callerFor(h, as("admin"));
    expect(await descriptionOf("pdf")).toBeUndefined(); // the index exists before the source does
    const first = repo.head();
    await expect(admin.sources.add({ name: "org", url: `file://${repo.bare}`, path: "skills" })).resolves.toEqual({ name: "org", from: null, to: first });
    expect(await descriptionOf("pdf")).toBe("Fills PDF forms. Use for PDF files.");

    repo.write({ "skills/pdf/SKILL.md": skillMd("pdf", "Fills and signs PDF forms. Use for PDF files.") });
    const second = repo.commit("pdf signs");
    const [row] = await admin.sources.list({ remote: true });
    expect(row).toMatchObject({ name: "org", commit: first, skills: 2, behind: 1, head: second, layer: "enterprise", path: "skills" });
    expect(await descriptionOf("pdf")).toBe("Fills PDF forms. Use for PDF files."); // a push alone changes nothing

    await expect(admin.sources.update({ name: "org" })).resolves.toMatchObject({ from: first, to: second });
    expect(await descriptionOf("pdf")).toBe("Fills and signs PDF forms. Use for PDF files.");
    await expect(admin.sources.rollback({ name: "org" })).resolves.toMatchObject({ from: second, to: first });
    expect(await descriptionOf("pdf")).toBe("Fills PDF forms. Use for PDF files.");
    await admin.sources.remove({ name: "org" });
    expect(await descriptionOf("pdf")).toBeUndefined();

    const steps = h.audit.events.filter((e) => e.type.startsWith("source_"));
    expect(steps.map((e) => [e.type, e.details?.from, e.details?.to, e.actor?.email])).toEqual([
      ["source_added", null, first, "admin@x.io"],
      ["source_updated", first, second, "admin@x.io"],
      ["source_rolled_back", second, first, "admin@x.io"],
      ["source_removed", first, null, "admin@x.io"],
    ]);
  });

  it("refusals are clear errors with a stable code, and a URL's password is never in them nor in the list", async () => {
    const admin = callerFor(h, as("admin"));
    await expect(admin.sources.update({ name: "nope" })).rejects.toMatchObject({ code: "NOT_FOUND", message: expect.stringMatching(/no source named "nope"/) });
    await expect(admin.sources.add({ name: "../x", url: `file://${repo.bare}` })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/not a usable source name/) });
    await expect(admin.sources.add({ name: "ext", url: "ext::sh -c id" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const failed = await admin.sources.add({ name: "secret", url: "http://alice:hunter2-token@127.0.0.1:9/skills.git" }).catch((e: Error) => e);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).message).not.toContain("hunter2-token");
    await admin.sources.add({ name: "org", url: `file://${repo.bare}` });
    await expect(admin.sources.add({ name: "org", url: `file://${repo.bare}` })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(admin.sources.rollback({ name: "org" })).rejects.toMatchObject({ code: "PRECONDITION_FAILED" });
    expect(JSON.stringify(await admin.sources.list({}))).not.toContain("hunter2-token");
    expect(JSON.stringify(h.audit.events)).not.toContain("hunter2-token");
  });
});

describe("a source's skills in the skill list and the editor", () => {
  it("show their repository, folder and commit, open read-only from the checkout, refuse edits, and copy to a layer", async () => {
    h.skill("enterprise", "pdf", { description: "The enterprise folder's own pdf. Use never." });
    const admin = callerFor(h, as("admin"));
    // The source feeds the same layer, with a folder of the same name: its ref must never lead to the other one.
    await admin.sources.add({ name: "org", url: `file://${repo.bare}`, path: "skills" });
    const rows = (await admin.skill.list({ q: "pdf" })).rows.filter((r) => r.layer === "enterprise");
    expect(rows).toHaveLength(2);
    const row = rows.find((r) => r.source);
    expect(row).toMatchObject({ name: "pdf", ref: { layer: "enterprise", source: "org", skill: "pdf" }, source: { name: "org", url: `file://${repo.bare}`, path: "skills", commit: repo.head() } });
    expect(rows.find((r) => !r.source)?.ref.source).toBeUndefined();

    const info = await admin.skill.info({ ref: row!.ref });
    expect(info).toMatchObject({ canWrite: false, description: "Fills PDF forms. Use for PDF files.", source: { name: "org", commit: repo.head() } });
    // The enterprise folder's own pdf has console history; the source's pdf has none of it.
    const own = rows.find((r) => !r.source)!;
    const text = (await admin.skill.readFile({ ref: own.ref, path: "SKILL.md" })) as { text: string; digest: string };
    await admin.skill.save({ ref: own.ref, path: "SKILL.md", text: text.text + "\nMore.\n", baseDigest: text.digest });
    expect(await admin.skill.versions({ ref: own.ref })).not.toEqual([]);
    expect(await admin.skill.versions({ ref: row!.ref })).toEqual([]);
    const file = await admin.skill.readFile({ ref: row!.ref, path: "SKILL.md" });
    expect(JSON.stringify(file)).toContain("Fills PDF forms.");
    await expect(admin.skill.save({ ref: row!.ref, path: "SKILL.md", text: skillMd("pdf", "Changed here. Use never."), baseDigest: null })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringMatching(/comes from the git source "org": change it there/),
    });
    await expect(admin.skill.deletePath({ ref: row!.ref, path: "SKILL.md" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(fs.readFileSync(path.join(h.root("enterprise"), "pdf", "SKILL.md"), "utf8")).toContain("The enterprise folder's own pdf.");

    // "Copy to my layer": the existing deploy, from exactly this definition.
    await admin.layers.deploy({ name: "pdf", fromId: info.definitionId!, target: "personal" });
    const copy = (await admin.skill.list({ q: "pdf" })).rows.find((r) => r.layer === "personal");
    expect(copy).toMatchObject({ description: "Fills PDF forms. Use for PDF files." });
    expect((await admin.skill.list({ q: "pdf" })).rows.filter((r) => r.layer === "enterprise")).toHaveLength(2);
    expect(copy?.source).toBeUndefined();
    expect((await admin.skill.info({ ref: copy!.ref })).canWrite).toBe(true);
  });
});


describe("reviewed source updates (policy: approval required for git source updates)", () => {
  it("an update makes one pending approval per changed skill with its diff; the pin moves only once all are approved", async () => {
    const admin = callerFor(h, as("admin"));
    await admin.policy.change({ op: "setRequireApproval", sources: true });
    const first = repo.head();
    await admin.sources.add({ name: "org", url: `file://${repo.bare}`, path: "skills" });
    repo.write({
      "skills/pdf/SKILL.md": skillMd("pdf", "Fills and signs PDF forms. Use for PDF files."),
      "skills/xlsx/SKILL.md": skillMd("xlsx", "Reads and charts spreadsheets. Use for xlsx files."),
      "README.md": "not a skill\n",
    });
    const second = repo.commit("pdf signs, xlsx charts");

    await expect(admin.sources.update({ name: "org" })).resolves.toMatchObject({ from: first, to: second, pending: 2 });
    expect((await admin.sources.list({}))[0]!.commit).toBe(first);
    expect(await descriptionOf("pdf")).toBe("Fills PDF forms. Use for PDF files.");
    const reviews = await admin.sources.reviews();
    expect(reviews.map((r) => [r.skill, r.layer, r.from, r.to, r.stale])).toEqual([
      ["pdf", "enterprise", first, second, false],
      ["xlsx", "enterprise", first, second, false],
    ]);
    expect(reviews[0]!.diff).toContain("-description: Fills PDF forms. Use for PDF files.");
    expect(reviews[0]!.diff).toContain("+description: Fills and signs PDF forms. Use for PDF files.");
    expect(reviews[0]!.diff).not.toContain("xlsx");
    // A second update of the same head asks nothing twice.
    await admin.sources.update({ name: "org" });
    expect(await admin.sources.reviews()).toHaveLength(2);
    // Nor do these rows count as approvals of a definition, nor list as one in the queue.
    expect((await admin.policy.approvals()).items.some((i) => i.skill === "pdf")).toBe(false);

    const [pdf, xlsx] = reviews;
    await expect(admin.policy.decide({ id: pdf!.id, decision: "approved", comment: "" })).resolves.toMatchObject({ sourcePinned: null });
    expect(await descriptionOf("pdf")).toBe("Fills PDF forms. Use for PDF files.");
    await expect(admin.policy.decide({ id: xlsx!.id, decision: "approved", comment: "" })).resolves.toMatchObject({ sourcePinned: second });
    expect((await admin.sources.list({}))[0]!.commit).toBe(second);
    expect(await descriptionOf("pdf")).toBe("Fills and signs PDF forms. Use for PDF files.");
    expect(await admin.sources.reviews()).toEqual([]);

    const steps = h.audit.events.filter((e) => e.type.startsWith("source_") || e.type === "approval_decided");
    expect(steps.map((e) => [e.type, e.details?.from ?? null, e.details?.to ?? null])).toEqual([
      ["source_added", null, first],
      ["source_update_proposed", first, second],
      ["source_update_proposed", first, second],
      ["approval_decided", null, null],
      ["approval_decided", null, null],
      ["source_updated", first, second],
    ]);
  });

  it("a rejected change keeps the pin where it was", async () => {
    const admin = callerFor(h, as("admin"));
    await admin.policy.change({ op: "setRequireApproval", sources: true });
    const first = repo.head();
    await admin.sources.add({ name: "org", url: `file://${repo.bare}`, path: "skills" });
    repo.write({ "skills/pdf/SKILL.md": skillMd("pdf", "Sends PDF forms to a server. Use for PDF files.") });
    repo.commit("pdf uploads");
    await expect(admin.sources.update({ name: "org" })).resolves.toMatchObject({ pending: 1 });
    const [review] = await admin.sources.reviews();
    await expect(admin.policy.decide({ id: review!.id, decision: "rejected", comment: "no uploads" })).resolves.toMatchObject({ sourcePinned: null });
    expect((await admin.sources.list({}))[0]!.commit).toBe(first);
    expect(await descriptionOf("pdf")).toBe("Fills PDF forms. Use for PDF files.");
  });

  it("a proposal approved in full whose pin did not move (git failed then) moves at the next update", async () => {
    const admin = callerFor(h, as("admin"));
    await admin.policy.change({ op: "setRequireApproval", sources: true });
    await admin.sources.add({ name: "org", url: `file://${repo.bare}`, path: "skills" });
    repo.write({ "skills/pdf/SKILL.md": skillMd("pdf", "Fills and signs PDF forms. Use for PDF files.") });
    const second = repo.commit("pdf signs");
    await admin.sources.update({ name: "org" });
    await execSql(h.db, `UPDATE approvals SET status = 'approved' WHERE source = 'org'`);
    await expect(admin.sources.update({ name: "org" })).resolves.toMatchObject({ to: second, pending: 0 });
    expect((await admin.sources.list({}))[0]!.commit).toBe(second);
    expect(await descriptionOf("pdf")).toBe("Fills and signs PDF forms. Use for PDF files.");
  });
});
