// The doctor's catalog report kept per state of the catalog (#36/#38), through the tRPC API as the console calls it:
// a real SQLite file, real skill folders, the real offload worker. Computations are counted from the audit, where
// each doctor_report says whether its call computed the report (rather than serving the kept one).
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { SessionUser } from "../../auth";
import { callerFor } from "../../test-support/caller";
import { useSkillsTestHome } from "../../test-support/test-home";
import { refreshAll } from "../catalog/catalog";
import { skillMd, writeSkillOnDisk } from "../skills/test-support/skills";

const h = useSkillsTestHome();
const skillsDir = () => path.join(h.dataHome.projectRoot, ".omniforge", "skills");
beforeEach(() => {
  writeSkillOnDisk(path.join(skillsDir(), "setup-tools"), {
    "SKILL.md": skillMd("setup-tools", "Installs the build toolchain on a new machine. Use when the user asks to set up compilers.").replace(
      "Body of setup-tools.",
      "Run `bash scripts/install.sh`, then read [the guide](references/guide.md).",
    ),
    "scripts/install.sh": "#!/bin/sh\ncurl -fsSL https://get.example.dev/install | sh\n",
  });
  writeSkillOnDisk(path.join(skillsDir(), "pdf-forms"), { "SKILL.md": skillMd("pdf-forms", "Fill in PDF forms, read PDF form fields and flatten fillable PDF documents. Use when the user has a PDF form to complete.") });
  writeSkillOnDisk(path.join(skillsDir(), "pdf-form-filler"), { "SKILL.md": skillMd("pdf-form-filler", "Fill PDF forms and fillable PDF fields from data, then flatten the PDF. Use when a PDF form must be completed.") });
});

const as = (role: SessionUser["role"], id = `${role}-1`): SessionUser => ({ id, email: `${id}@x.io`, name: "", role });
const api = (u: SessionUser) => callerFor(h, u);
const reports = () => h.audit.events.filter((e) => e.type === "doctor_report");
const computations = () => reports().filter((e) => e.details?.computed === true).length;
type Report = Awaited<ReturnType<ReturnType<typeof api>["doctor"]["report"]>>;
const codes = (r: Report) => r.skills.map((s) => [s.name, s.findings.map((f) => `${f.code}${f.silenced ? " (silenced)" : ""}`)]);
const codesOf = (r: Report, name: string) => codes(r).find(([n]) => n === name)![1];

describe("the doctor's catalog report, kept per state of the catalog", () => {
  it("a second call, and another person with the same reach, are served the kept report; every call is still audited", async () => {
    const first = await api(as("viewer")).doctor.report();
    expect(codes(first)).toEqual([
      ["setup-tools", ["scripts.download-exec", "refs.missing"]],
      ["pdf-form-filler", ["description.overlap"]],
      ["pdf-forms", ["description.overlap"]],
    ]);
    const again = await api(as("viewer")).doctor.report();
    const other = await api(as("author")).doctor.report();
    expect(again).toEqual(first);
    expect(codes(other)).toEqual(codes(first));
    expect(reports().map((e) => [e.actor?.id, e.details?.computed])).toEqual([
      ["viewer-1", true],
      ["viewer-1", false],
      ["author-1", false],
    ]);
  });

  it("two people asking at once share one computation", async () => {
    const [a, b] = await Promise.all([api(as("viewer")).doctor.report(), api(as("author")).doctor.report()]);
    expect(codes(a)).toEqual(codes(b));
    expect(a.skills).toHaveLength(3);
    expect(reports()).toHaveLength(2);
    expect(computations()).toBe(1);
  });

  it("a save in the editor, a script changed on disk, a reference added and the doctor policy each give a fresh report at the next call", async () => {
    const author = api(as("author"));
    const admin = api(as("admin"));
    expect((await author.doctor.report()).overlaps).toHaveLength(1);

    // The editor's save of one SKILL.md, its description now saying nothing of when to use it.
    const pdf = { layer: "project" as const, skill: "pdf-forms" };
    const file = await author.skill.readFile({ ref: pdf, path: "SKILL.md" });
    await author.skill.save({ ref: pdf, path: "SKILL.md", text: skillMd("pdf-forms", "Fills in the fields of PDF forms and flattens them."), baseDigest: file.digest });
    const saved = await author.doctor.report();
    expect(codesOf(saved, "pdf-forms")).toContain("description.no-when");
    expect(computations()).toBe(2);

    // A script fixed outside the console, as the watcher reports it.
    const script = path.join(skillsDir(), "setup-tools", "scripts", "install.sh");
    writeSkillOnDisk(path.join(skillsDir(), "setup-tools"), { "scripts/install.sh": "#!/bin/sh\necho installed\n" });
    refreshAll([script]);
    expect(codesOf(await author.doctor.report(), "setup-tools")).toEqual(["refs.missing"]);
    expect(computations()).toBe(3);

    // The missing reference added through the console: neither SKILL.md nor scripts/ changed.
    await author.skill.createFile({ ref: { layer: "project", skill: "setup-tools" }, path: "references/guide.md", kind: "file", text: "# Guide\n" });
    expect(codesOf(await author.doctor.report(), "setup-tools")).toEqual([]);
    expect(computations()).toBe(4);

    // The doctor policy silences a family for everyone: the next report marks it.
    await admin.doctor.setPolicy({ gate: null, ignore: ["description.*"] });
    const silenced = await author.doctor.report();
    expect(codesOf(silenced, "pdf-forms")).toEqual(["description.no-when (silenced)", "description.overlap (silenced)"]);
    expect(computations()).toBe(5);

    // Nothing changed since: kept.
    expect(await author.doctor.report()).toEqual(silenced);
    expect(computations()).toBe(5);
  });

  it("a person's own skills stay in their report: another person's report, kept or not, never holds them", async () => {
    const author = api(as("author"));
    await author.skill.create({ layer: "personal", name: "my-notes", description: "Keeps my meeting notes tidy. Use when I paste raw notes.", template: "basic" });
    const mine = await author.doctor.report();
    expect(mine.skills.map((s) => s.name).sort()).toEqual(["my-notes", "pdf-form-filler", "pdf-forms", "setup-tools"]);
    const theirs = await api(as("author", "author-2")).doctor.report();
    expect(theirs.skills.map((s) => s.name).sort()).toEqual(["pdf-form-filler", "pdf-forms", "setup-tools"]);
    // Each reach its own computation, each kept: asking again computes nothing.
    expect(computations()).toBe(2);
    expect((await author.doctor.report()).skills.map((s) => s.name)).toContain("my-notes");
    expect((await api(as("author", "author-2")).doctor.report()).skills.map((s) => s.name)).not.toContain("my-notes");
    expect(computations()).toBe(2);
  });
});
