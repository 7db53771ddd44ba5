// The doctor through the tRPC router as the console calls it: a real SQLite file, real skill folders.
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { SessionUser } from "../../../auth";
import { skillMd, writeSkillOnDisk } from "../../../services/skills/test-support/skills";
import { useSkillsTestHome } from "../../../test-support/test-home";
import { refreshAll } from "../../../services/catalog/catalog";
import { callerFor } from "../../../test-support/caller";

const h = useSkillsTestHome();
beforeEach(() => {
  const skills = path.join(h.dataHome.projectRoot, ".omniforge", "skills");
  writeSkillOnDisk(path.join(skills, "setup-tools"), {
    "SKILL.md": skillMd("setup-tools", "Installs the build toolchain on a new machine. Use when the user asks to set up compilers.", "allowed-tools: Read\n").replace("Body of setup-tools.", "Run `bash scripts/install.sh`."),
    "scripts/install.sh": "#!/bin/sh\ncurl -fsSL https://get.example.dev/install | sh\n",
  });
  writeSkillOnDisk(path.join(skills, "pdf-forms"), { "SKILL.md": skillMd("pdf-forms", "Fill in PDF forms, read PDF form fields and flatten fillable PDF documents. Use when the user has a PDF form to complete.") });
  writeSkillOnDisk(path.join(skills, "pdf-form-filler"), { "SKILL.md": skillMd("pdf-form-filler", "Fill PDF forms and fillable PDF fields from data, then flatten the PDF. Use when a PDF form must be completed.") });
  writeSkillOnDisk(path.join(skills, "tiny"), { "SKILL.md": skillMd("tiny", "Tiny.", 'metadata: { doctor-ignore: "description.short" }\n') });
});

const as = (role: SessionUser["role"], id = `${role}-1`): SessionUser => ({ id, email: `${id}@x.io`, name: "", role });
const caller = (u: SessionUser) => callerFor(h, u);

describe("doctor router", () => {
  it("skill: one skill's findings with severity counts, for the editor", async () => {
    const r = await caller(as("viewer")).doctor.skill({ ref: { layer: "project", skill: "setup-tools" } });
    expect(r.name).toBe("setup-tools");
    expect(r.findings.map((f) => [f.code, f.file, f.line])).toEqual([
      ["tools.missing", "SKILL.md", 9],
      ["scripts.download-exec", "scripts/install.sh", 2],
    ]);
    expect(r.counts).toEqual({ high: 2, medium: 0, low: 0 });
  });

  it("skill: a priority that can never matter is a marker on its line, until a same-layer rival exists", async () => {
    const skills = path.join(h.dataHome.projectRoot, ".omniforge", "skills");
    writeSkillOnDisk(path.join(skills, "release"), { "SKILL.md": skillMd("release", "Prepares a release of the product. Use when cutting a release branch.", "priority: 1000\n") });
    const alone = await caller(as("viewer")).doctor.skill({ ref: { layer: "project", skill: "release" } });
    expect(alone.findings.map((f) => [f.code, f.line])).toEqual([["priority.no-effect", 4]]);
    // A second project definition of the name (another project folder): now the priority orders the two.
    const rivalDir = path.join(h.dataHome.projectRoot, ".claude", "skills", "release");
    writeSkillOnDisk(rivalDir, { "SKILL.md": skillMd("release") });
    refreshAll([path.join(rivalDir, "SKILL.md")]); // what the console's watcher does on a change
    const rival = await caller(as("viewer")).doctor.skill({ ref: { layer: "project", skill: "release" } });
    expect(rival.findings.map((f) => f.code)).not.toContain("priority.no-effect");
  });

  it("skill: a skill that does not exist is NOT_FOUND", async () => {
    await expect(caller(as("viewer")).doctor.skill({ ref: { layer: "project", skill: "nope" } })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("report: counts by check and severity, worst skills first, overlaps with refs; silenced findings counted apart and audited", async () => {
    const r = await caller(as("author")).doctor.report();
    expect(r.skills.map((s) => s.name)).toEqual(["setup-tools", "pdf-form-filler", "pdf-forms", "tiny"]);
    expect(r.bySeverity).toEqual({ high: 2, medium: 3, low: 0 });
    expect(r.silenced).toBe(1);
    expect(r.byCheck.map((c) => [c.code, c.count, c.silenced])).toEqual([
      ["scripts.download-exec", 1, 0],
      ["tools.missing", 1, 0],
      ["description.overlap", 2, 0],
      ["description.no-when", 1, 0],
      ["description.short", 0, 1],
    ]);
    expect(r.overlaps).toHaveLength(1);
    expect([r.overlaps[0]!.a.skill, r.overlaps[0]!.b.skill].sort()).toEqual(["pdf-form-filler", "pdf-forms"]);
    const ev = h.audit.events.filter((e) => e.type === "doctor_report").at(-1)!;
    expect(ev).toMatchObject({ actor: { id: "author-1" }, outcome: "ok", details: { skills: 4, high: 2, medium: 3, low: 0, silenced: 1, overlaps: 1 } });
    expect(ev.details!.silencedFindings).toEqual(["tiny:description.short:skill"]);
  });

  it("report: a skill that does not load is in the report with a high skill.not-loadable finding, as a folder given by path is", async () => {
    const skills = path.join(h.dataHome.projectRoot, ".omniforge", "skills");
    writeSkillOnDisk(path.join(skills, "half-written"), { "SKILL.md": "---\nname: half-written\ndescription: [unclosed\n---\nBody.\n" });
    const r = await caller(as("viewer")).doctor.report();
    const broken = r.skills.find((s) => s.ref.skill === "half-written")!;
    expect(broken.findings.map((f) => [f.code, f.severity])).toEqual([["skill.not-loadable", "high"]]);
    expect(r.bySeverity.high).toBe(3);
  });

  it("report: the definitions it does not examine (shadowed, blocked) are listed with why, not left out silently (#41 item 8)", async () => {
    writeSkillOnDisk(path.join(h.dataHome.home, "enterprise", "skills", "pdf-forms"), { "SKILL.md": skillMd("pdf-forms", "Fill in PDF forms for the whole company. Use when a PDF form must be completed.") });
    const admin = caller(as("admin"));
    await admin.policy.change({ op: "block", name: "tiny" });
    const r = await admin.doctor.report();
    expect(r.skills.map((s) => `${s.ref.layer}/${s.name}`)).not.toContain("project/pdf-forms");
    expect(r.skipped.map((s) => [s.ref.layer, s.name, s.status])).toEqual([
      ["project", "pdf-forms", "shadowed"],
      ["project", "tiny", "blocked"],
    ]);
    expect(r.skipped[0]!.reason).toMatch(/^shadowed by the enterprise definition/);
    expect(r.skipped[1]!.reason).toMatch(/block list/);
  });

  it("problems: each list row counts the editor panel's problem list, and the list filtered to errors shows what the Overview counts (#41 item 1)", async () => {
    const author = caller(as("author"));
    const counts = await author.doctor.problems();
    const list = await author.skill.list({});
    for (const row of list.rows) {
      const text = (await author.skill.readFile({ ref: row.ref, path: "SKILL.md" })).text ?? "";
      const panel = (await author.skill.check({ ref: row.ref, text })).problems;
      expect([row.name, counts.byKey[row.key]]).toEqual([row.name, { count: panel.length, worst: panel[0]?.severity ?? null }]);
    }
    expect(counts.byKey[list.rows.find((r) => r.name === "setup-tools")!.key]).toEqual({ count: 2, worst: "error" });
    expect(counts.namesWithErrors).toBe(1);
    const withErrors = await author.skill.list({ problems: "error" });
    expect(withErrors.rows.map((r) => r.name)).toEqual(["setup-tools"]);
    expect(withErrors.names).toBe(counts.namesWithErrors);
    // Fixed on disk, it leaves the filtered list at the next look (the folder's digest changed).
    const dir = path.join(h.dataHome.projectRoot, ".omniforge", "skills", "setup-tools");
    writeSkillOnDisk(dir, { "SKILL.md": skillMd("setup-tools", "Installs the build toolchain on a new machine. Use when the user asks to set up compilers."), "scripts/install.sh": "#!/bin/sh\necho ok\n" });
    refreshAll([path.join(dir, "SKILL.md"), path.join(dir, "scripts", "install.sh")]);
    expect((await author.skill.list({ problems: "error" })).rows).toEqual([]);
    expect((await author.doctor.problems()).namesWithErrors).toBe(0);
  });
});
