// Trigger tests through the tRPC router as the console calls them: a real SQLite file, real skill folders, the
// offline provider. The set is saved as the skill's evals/triggers.json (a version), a run is stored and audited,
// rights are the skills' rights.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SessionUser } from "../../../auth";
import { settledRun } from "../../../services/evals";
import { skillMd, skillsTestHome, writeSkillOnDisk } from "../../../services/skills/test-support";
import { createCaller } from "../../root";

let h: ReturnType<typeof skillsTestHome>;
let skills: string;
beforeEach(() => {
  h = skillsTestHome();
  skills = path.join(h.dh.projectRoot, ".omniforge", "skills");
  writeSkillOnDisk(path.join(skills, "pdf-forms"), { "SKILL.md": skillMd("pdf-forms", "Fill PDF forms and list their fields. Use when working with PDF forms or fillable PDF documents.") });
  writeSkillOnDisk(path.join(skills, "docx-writer"), { "SKILL.md": skillMd("docx-writer", "Create and edit Word documents (.docx). Use when asked for a Word report or memo.") });
  writeSkillOnDisk(path.join(skills, "weather-report"), { "SKILL.md": skillMd("weather-report", "Fetch the weather forecast for a city. Use when the user asks about the weather.") });
});
afterEach(() => h.cleanup());

const as = (role: SessionUser["role"], id = `${role}-1`): SessionUser => ({ id, email: `${id}@x.io`, name: "", role });
const caller = (u: SessionUser) => createCaller({ db: h.db, dataHome: h.dh, audit: h.audit, user: u, ip: "127.0.0.1" });
const pdf = { layer: "project" as const, skill: "pdf-forms" };
const svc = (u: SessionUser) => h.ctx({ id: u.id, email: u.email, role: u.role });

describe("evals router", () => {
  it("an author saves a set (a versioned triggers.json in skill-creator's format), runs it, and the run is kept and audited", async () => {
    const author = caller(as("author"));
    expect(await author.evals.getSet({ ref: pdf })).toMatchObject({ triggers: [], digest: null, diagnostics: [] });
    const cases = [
      { query: "fill in the fields of this PDF form", should_trigger: true },
      { query: "what will the weather be in Oslo", should_trigger: false },
      { query: "write a Word memo for the team", should_trigger: true },
    ];
    await author.evals.saveSet({ ref: pdf, cases, baseDigest: null });
    const onDisk = JSON.parse(fs.readFileSync(path.join(skills, "pdf-forms", "evals", "triggers.json"), "utf8"));
    expect(onDisk).toEqual(cases);
    expect((await author.skill.versions({ ref: pdf })).some((v) => v.path === "evals/triggers.json")).toBe(true);

    const { id } = await author.evals.start({ ref: pdf, provider: "offline", mode: "tool" });
    const run = await settledRun(svc(as("author")), id);
    expect(run.status).toBe("done");
    expect(run.results.map((r) => r.passed)).toEqual([true, true, false]);
    expect(run.results[2]!.chosen).toEqual(["docx-writer"]);
    expect(run.summary).toMatchObject({ tp: 1, fn: 1, tn: 1, fp: 0, precision: 1, recall: 0.5 });
    expect(run.f1).toBe(0.667);
    expect(h.audit.events.filter((e) => e.type === "eval_run").at(-1)).toMatchObject({ skill: "pdf-forms", outcome: "ok", details: { runId: id, provider: "offline", cases: 3, passed: 2 } });

    // A changed description, a second run: the history has both, newest first, with different digests.
    const text = fs.readFileSync(path.join(skills, "pdf-forms", "SKILL.md"), "utf8").replace("Fill PDF forms", "Fill PDF forms and Word memos");
    const { digest } = await author.skill.readFile({ ref: pdf, path: "SKILL.md" });
    await author.skill.save({ ref: pdf, path: "SKILL.md", text, baseDigest: digest });
    const second = await author.evals.start({ ref: pdf, provider: "offline", mode: "tool" });
    await settledRun(svc(as("author")), second.id);
    const history = await caller(as("viewer")).evals.list({ ref: pdf });
    expect(history.map((r) => r.id)).toEqual([second.id, id]);
    expect(history[0]!.skillDigest).not.toBe(history[1]!.skillDigest);
    expect((await caller(as("viewer")).evals.overview()).map((o) => [o.skillName, o.runId])).toEqual([["pdf-forms", second.id]]);
  });

  it("viewers read but cannot run or save; a bad imported set is a diagnostic, not a save", async () => {
    const viewer = caller(as("viewer"));
    await expect(viewer.evals.start({ ref: pdf, provider: "offline", mode: "tool", cases: [{ query: "fill a pdf form", should_trigger: true }] })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(viewer.evals.saveSet({ ref: pdf, cases: [], baseDigest: null })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(h.audit.events.filter((e) => e.type === "access_denied").map((e) => e.details?.procedure)).toEqual(["evals.start", "evals.saveSet"]);
    const parsed = await caller(as("author")).evals.parseSet({ text: '[{"query": "a", "should_trigger": tru}]' });
    expect(parsed.cases).toEqual([]);
    expect(parsed.diagnostics[0]).toMatchObject({ code: "eval.json", line: 1 });
  });

  it("refuses an empty set, a shadowed definition and a provider that is not configured, with the reason", async () => {
    const author = caller(as("author"));
    await expect(author.evals.start({ ref: pdf, provider: "offline", mode: "tool" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/trigger set is empty/) });
    writeSkillOnDisk(path.join(h.dh.home, "enterprise", "skills", "pdf-forms"), { "SKILL.md": skillMd("pdf-forms", "The enterprise PDF skill. Use for PDFs.") });
    const cases = [{ query: "fill a pdf form", should_trigger: true }];
    await expect(author.evals.start({ ref: pdf, provider: "offline", mode: "tool", cases })).rejects.toMatchObject({ message: expect.stringMatching(/enterprise layer's definition wins/) });
    await expect(author.evals.start({ ref: { layer: "project", skill: "docx-writer" }, provider: "anthropic", mode: "tool", cases })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});
