// Trigger tests through the tRPC router as the console calls them: a real database, real skill folders, the
// offline provider. The set is saved as the skill's evals/triggers.json (a version), a run is stored and audited,
// rights are the skills' rights.
import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { SessionUser } from "../../../auth";
import { settledRun } from "../../../services/evals";
import { skillMd, writeSkillOnDisk } from "../../../services/skills/test-support/skills";
import { useSkillsTestHome } from "../../../test-support/test-home";
import { scriptedOpenAiServer } from "../../../runtime/agent/test-support/agent";
import { callerFor } from "../../../test-support/caller";
import { itOnSqlite } from "../../../test-support/needs";
import { refreshAll } from "../../../services/catalog/catalog";

const h = useSkillsTestHome();
let skills: string;
beforeEach(() => {
  skills = path.join(h.dataHome.projectRoot, ".omniforge", "skills");
  writeSkillOnDisk(path.join(skills, "pdf-forms"), { "SKILL.md": skillMd("pdf-forms", "Fill PDF forms and list their fields. Use when working with PDF forms or fillable PDF documents.") });
  writeSkillOnDisk(path.join(skills, "docx-writer"), { "SKILL.md": skillMd("docx-writer", "Create and edit Word documents (.docx). Use when asked for a Word report or memo.") });
  writeSkillOnDisk(path.join(skills, "weather-report"), { "SKILL.md": skillMd("weather-report", "Fetch the weather forecast for a city. Use when the user asks about the weather.") });
});

const as = (role: SessionUser["role"], id = `${role}-1`): SessionUser => ({ id, email: `${id}@x.io`, name: "", role });
const caller = (u: SessionUser) => callerFor(h, u);
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
    writeSkillOnDisk(path.join(h.dataHome.home, "enterprise", "skills", "pdf-forms"), { "SKILL.md": skillMd("pdf-forms", "The enterprise PDF skill. Use for PDFs.") });
    refreshAll([path.join(h.dataHome.home, "enterprise", "skills", "pdf-forms", "SKILL.md")]); // what the console's watcher does on a change
    const cases = [{ query: "fill a pdf form", should_trigger: true }];
    await expect(author.evals.start({ ref: pdf, provider: "offline", mode: "tool", cases })).rejects.toMatchObject({ message: expect.stringMatching(/enterprise layer's definition wins/) });
    await expect(author.evals.start({ ref: { layer: "project", skill: "docx-writer" }, provider: "anthropic", mode: "tool", cases })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("suggest a better description", () => {
  it("with a model provider: proposes, the author applies it as a versioned save of SKILL.md; offline, from the queries' words", async () => {
    const BETTER = "Fill PDF forms and merge scanned invoices into one PDF. Use for PDF forms or invoices.";
    const server = await scriptedOpenAiServer((body) => {
      const all = JSON.stringify(body);
      if (all.includes("You improve the descriptions")) return { content: `<description>${BETTER}</description>` };
      const request = String([...body.messages].reverse().find((m) => m.role === "user")?.content ?? "").toLowerCase();
      if (request.includes("pdf form") || (request.includes("invoice") && all.includes("merge scanned invoices"))) return { toolCalls: [{ name: "skill", arguments: { name: "pdf-forms" } }] };
      return { content: "No skill needed." };
    });
    const saved = { ...process.env };
    Object.assign(process.env, { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "k", OMNIFORGE_MODEL: "gpt-test" });
    try {
      const author = caller(as("author"));
      const cases = [
        ["fill this PDF form for me", true],
        ["merge the scanned invoices", true],
        ["combine these invoice scans", true],
        ["complete the PDF form fields", true],
        ["put every invoice into one file", true],
        ["weather in Oslo", false],
        ["tell me a joke", false],
        ["what time is it", false],
        ["weather tomorrow", false],
        ["translate hello", false],
      ].map(([query, should_trigger]) => ({ query: query as string, should_trigger: should_trigger as boolean }));
      await author.evals.saveSet({ ref: pdf, cases, baseDigest: null });
      // Offline, the proposal comes from the failing queries' words the skill's text supports: this skill's text
      // says nothing of invoices, so nothing is proposed, and the words are named for a person (or a model) to judge.
      const off = await author.evals.suggest({ ref: pdf, provider: "offline", mode: "tool" });
      expect(off).toMatchObject({ proposedBy: "words", unchanged: true, words: { added: [] } });
      expect(off.words!.unsupported).toEqual(expect.arrayContaining(["invoice", "scans"]));
      expect(off.rankings.map((r) => [r.query, r.before.chosen])).toEqual(expect.arrayContaining([["merge the scanned invoices", false]]));
      const s = await author.evals.suggest({ ref: pdf, provider: "openai", mode: "tool", iterations: 1, runs: 1 });
      expect(s.best.description).toBe(BETTER);
      expect(s.best.test).toBeGreaterThan(s.before.test);
      expect(fs.readFileSync(path.join(skills, "pdf-forms", "SKILL.md"), "utf8")).not.toContain(BETTER); // nothing applied yet
      await author.evals.applyDescription({ ref: pdf, description: s.best.description, baseDigest: s.skillDigest });
      expect(fs.readFileSync(path.join(skills, "pdf-forms", "SKILL.md"), "utf8")).toContain(`description: ${BETTER}\n`);
      expect((await author.skill.versions({ ref: pdf }))[0]).toMatchObject({ path: "SKILL.md", message: "description suggested by trigger tests" });
      // Applying again against the old digest is a conflict: nothing is overwritten.
      await expect(author.evals.applyDescription({ ref: pdf, description: "Other words.", baseDigest: s.skillDigest })).rejects.toMatchObject({ code: "CONFLICT" });
    } finally {
      process.env = saved;
      await server.close();
    }
  });
});

describe("task evals graded in the console", () => {
  it("a model provider's run grades evals.json expectations and keeps the verdicts with the run", async () => {
    writeSkillOnDisk(path.join(skills, "pdf-forms", "evals"), {
      "evals.json": JSON.stringify({ skill_name: "pdf-forms", evals: [{ id: 7, prompt: "Fill the W-9 PDF form", expectations: ["names the form"] }] }),
    });
    const server = await scriptedOpenAiServer((body) => {
      const all = JSON.stringify(body);
      if (all.includes("You grade the answers")) return { content: '<grades>[{"n": 1, "passed": true, "reason": "It says W-9."}]</grades>' };
      if (!all.includes("Skill 'pdf-forms'")) return { toolCalls: [{ name: "skill", arguments: { name: "pdf-forms" } }] };
      return { content: "Filled the W-9." };
    });
    const saved = { ...process.env };
    Object.assign(process.env, { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "k", OMNIFORGE_MODEL: "gpt-test", OMNIFORGE_SANDBOX: "unsafe" });
    try {
      const { id } = await caller(as("author")).evals.start({ ref: pdf, provider: "openai", mode: "tool", runs: 1 });
      const run = await settledRun(svc(as("author")), id);
      expect(run.status).toBe("done");
      expect(run.summary?.tasks).toEqual([expect.objectContaining({ id: 7, activated: ["pdf-forms"], expectations: [{ expectation: "names the form", passed: true, reason: "It says W-9." }] })]);
    } finally {
      process.env = saved;
      await server.close();
    }
  });
});

describe("the model a console run asks for", () => {
  it("with no model chosen, a run uses the server's OMNIFORGE_MODEL (an Ollama model), not another default", async () => {
    const server = await scriptedOpenAiServer(() => ({ toolCalls: [{ name: "skill", arguments: { name: "pdf-forms" } }] }));
    const saved = { ...process.env };
    Object.assign(process.env, { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "", OMNIFORGE_MODEL: "llama3.1:8b" });
    try {
      const cases = [{ query: "fill in this PDF form", should_trigger: true }];
      const { id } = await caller(as("author")).evals.start({ ref: pdf, provider: "openai", mode: "tool", runs: 1, cases });
      const run = await settledRun(svc(as("author")), id);
      expect([run.status, run.model, run.results[0]?.passed]).toEqual(["done", "llama3.1:8b", true]);
      expect(new Set(server.requests.map((r) => r.model))).toEqual(new Set(["llama3.1:8b"]));
      await expect(caller(as("author")).evals.start({ ref: pdf, provider: "openai", model: "bad model name", mode: "tool", cases })).rejects.toMatchObject({ code: "BAD_REQUEST", message: '"bad model name" is not a model name' });
    } finally {
      process.env = saved;
      await server.close();
    }
  });
});

describe("a run at the case limit", () => {
  itOnSqlite("keeps its progress in a few writes, not the whole result list again after every case (issue 35 item 5)", "counts the run's writes with SQLite's total_changes()", async () => {
    const author = caller(as("author"));
    const cases = Array.from({ length: 500 }, (_, i) => ({ query: `fill in PDF form number ${i}`, should_trigger: i % 2 === 0 }));
    const db = svc(as("author")).db.$client;
    const changes = () => (db.prepare("SELECT total_changes() AS n").get() as { n: number }).n;
    const before = changes();
    const { id } = await author.evals.start({ ref: pdf, provider: "offline", mode: "tool", cases });
    const run = await settledRun(svc(as("author")), id);
    expect(run.status).toBe("done");
    expect(run.results).toHaveLength(500);
    // 500 rewrites of the growing list were 30 MB through the console's thread and the WAL.
    expect(changes() - before).toBeLessThan(100);
  });
});
