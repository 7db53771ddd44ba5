// `omniforge skill eval` as CI runs it: the real bin, a fresh private HOME, real skill folders with a
// skill-creator trigger set, the offline provider; exit codes 0/1/2 and the --json shape of the issue.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptedOpenAiServer } from "../../runtime/agent/test-support/agent";
import { serveFetch } from "../../test-support/http-server";
import { tempLayers, type TempLayers, writeSkill } from "../../runtime/registry/test-support/registry";

const repo = path.resolve(import.meta.dirname, "../../..");
let t: TempLayers;
let pdf: string;

function omniforge(...args: string[]) {
  return omniforgeWith({}, ...args);
}

function omniforgeWith(env: Record<string, string>, ...args: string[]) {
  const r = spawnSync(process.execPath, [path.join(repo, "bin/omniforge.mjs"), "skill", "eval", ...args, "--home", t.home, "--project", t.project], {
    cwd: t.base,
    encoding: "utf8",
    env: { ...process.env, HOME: t.base, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "", OMNIFORGE_PROVIDER: "", OMNIFORGE_SANDBOX: "unsafe", ...env },
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const setFile = (name: string, cases: { query: string; should_trigger: boolean }[]) => {
  const file = path.join(t.base, name);
  fs.writeFileSync(file, JSON.stringify(cases, null, 2));
  return file;
};

beforeAll(() => {
  t = tempLayers();
  fs.chmodSync(t.base, 0o700);
  const skills = path.join(t.project, ".omniforge", "skills");
  pdf = writeSkill(skills, "pdf-forms", { description: "Fill PDF forms and list their fields. Use when working with PDF forms or fillable PDF documents." });
  writeSkill(skills, "docx-writer", { description: "Create and edit Word documents (.docx). Use when asked for a Word report or memo." });
  writeSkill(skills, "weather-report", { description: "Fetch the weather forecast for a city. Use when the user asks about the weather." });
  fs.mkdirSync(path.join(pdf, "evals"));
  fs.writeFileSync(
    path.join(pdf, "evals", "triggers.json"),
    JSON.stringify(
      [
        { query: "fill in the fields of this PDF form", should_trigger: true },
        { query: "what will the weather be in Oslo", should_trigger: false },
      ],
      null,
      2,
    ),
  );
});
afterAll(() => t.cleanup());

describe("omniforge skill eval", () => {
  it("runs the skill's own evals/triggers.json; every query passes: exit 0 and the --json shape", () => {
    const r = omniforge("pdf-forms", "--json");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const o = JSON.parse(r.out);
    expect(Object.keys(o)).toEqual(["skill", "provider", "model", "mode", "runs", "results", "summary"]);
    expect(o).toMatchObject({ skill: "pdf-forms", provider: "offline", mode: "tool", runs: 1 });
    expect(o.results).toHaveLength(2);
    expect(Object.keys(o.results[0])).toEqual(["query", "should_trigger", "triggered", "passed", "chosen", "tokens", "ms"]);
    expect(o.results[0]).toMatchObject({ query: "fill in the fields of this PDF form", should_trigger: true, triggered: 1, passed: true, chosen: ["pdf-forms"] });
    expect(o.summary).toMatchObject({ tp: 1, fp: 0, tn: 1, fn: 0, precision: 1, recall: 1, f1: 1 });
  });

  it("a failing query exits 1 and the text report says which skill fired instead and why", () => {
    const file = setFile("bad.json", [
      { query: "fill in the fields of this PDF form", should_trigger: true },
      { query: "write a Word memo for the team", should_trigger: true },
    ]);
    const r = omniforge("pdf-forms", "--triggers", file);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/FAIL .*write a Word memo for the team/);
    expect(r.out).toContain("fired instead: docx-writer");
    expect(r.out).toMatch(/ranking: docx-writer: /);
    expect(r.out).toMatch(/1\/2 passed · precision 100% · recall 50% · F1 67%/);
  });

  it("usage errors exit 2 with a message: unknown skill, bad JSON with line and column, bad flags", () => {
    expect(omniforge("no-such-skill").code).toBe(2);
    expect(omniforge("no-such-skill").err).toContain('no skill named "no-such-skill"');
    const broken = path.join(t.base, "broken.json");
    fs.writeFileSync(broken, '[\n  {"query": "a", "should_trigger": true}\n  {"query": "b"}\n]');
    const r = omniforge("pdf-forms", "--triggers", broken);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${broken}:3:3: triggers.json is not valid JSON`);
    expect(omniforge("pdf-forms", "--runs", "0").code).toBe(2);
    expect(omniforge("pdf-forms", "--provider", "nope").code).toBe(2);
    expect(omniforge("docx-writer").err).toContain("has no trigger set");
  });

  it("a trigger set linked from outside the skill folder is refused unread; a pipe given as --triggers is refused at once", () => {
    const weather = path.join(t.project, ".omniforge", "skills", "weather-report");
    const outside = setFile("outside.json", [{ query: "SECRET_FROM_OUTSIDE weather in Oslo", should_trigger: true }]);
    fs.mkdirSync(path.join(weather, "evals"));
    fs.symlinkSync(outside, path.join(weather, "evals", "triggers.json"));
    const r = omniforge("weather-report");
    expect([r.code, r.err.split("\n")[0]]).toEqual([
      2,
      "omniforge skill eval: cannot read the trigger set: evals/triggers.json is a symbolic link (or goes through one) to a place outside the skill folder; it is not read. Delete the link or copy the file into the skill.",
    ]);
    expect(r.out + r.err).not.toContain("SECRET_FROM_OUTSIDE");
    const fifo = path.join(t.base, "triggers.fifo");
    spawnSync("mkfifo", [fifo]);
    const p = omniforge("pdf-forms", "--triggers", fifo);
    expect([p.code, p.err.split("\n")[0]]).toEqual([2, `omniforge skill eval: cannot read the trigger set: ${fifo} is a named pipe, not a regular file`]);
  });

  it("evals.json expectations: offline says grading needs a model; a model provider grades each one", async () => {
    const dir = path.join(t.project, ".omniforge", "skills", "docx-writer");
    fs.mkdirSync(path.join(dir, "evals"), { recursive: true });
    fs.writeFileSync(path.join(dir, "evals", "evals.json"), JSON.stringify({ skill_name: "docx-writer", evals: [{ id: 1, prompt: "write a Word memo for the team", expectations: ["mentions the team", "is under 100 words"] }] }));
    const offline = JSON.parse(omniforge("docx-writer", "--json").out);
    expect(offline.note).toMatch(/grading them needs a model provider/);
    expect(offline.grades).toBeUndefined();

    const server = await scriptedOpenAiServer((body) => {
      const all = JSON.stringify(body);
      if (all.includes("You grade the answers")) return { content: '<grades>[{"n":1,"passed":true,"reason":"says team"},{"n":2,"passed":false,"reason":"too long"}]</grades>' };
      if (!all.includes("Skill 'docx-writer'")) return { toolCalls: [{ name: "skill", arguments: { name: "docx-writer" } }] };
      return { content: "Memo to the team: ..." };
    });
    try {
      const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const p = spawn(process.execPath, [path.join(repo, "bin/omniforge.mjs"), "skill", "eval", "docx-writer", "--json", "--runs", "1", "--provider", "openai", "--home", t.home, "--project", t.project], {
          cwd: t.base,
          env: { ...process.env, HOME: t.base, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "", OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "k", OMNIFORGE_MODEL: "gpt-test", OMNIFORGE_SANDBOX: "unsafe" },
        });
        let out = "";
        p.stdout.on("data", (d) => (out += d));
        p.on("close", (code) => resolve({ code, out }));
      });
      const o = JSON.parse(r.out);
      expect(o.grades[0].expectations.map((x: { passed: boolean }) => x.passed)).toEqual([true, false]);
      expect(r.code).toBe(1); // an expectation failed
    } finally {
      await server.close();
    }
  });

  it("a trigger set over the size limit is one line naming the file and the limit, no usage under it", () => {
    const big = path.join(t.base, "big.json");
    fs.writeFileSync(big, JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ query: `fill this PDF form ${i}`, should_trigger: true }))));
    const r = omniforge("pdf-forms", "--triggers", big);
    expect([r.code, r.out, r.err]).toEqual([2, "", `omniforge skill eval: cannot read the trigger set: ${big} is ${fs.statSync(big).size} bytes; the limit is 1048576\n`]);
  });

  it("an empty trigger set is an error (exit 2), not '0/0 passed' and exit 0", () => {
    const r = omniforge("pdf-forms", "--triggers", setFile("empty.json", []));
    expect([r.code, r.out]).toEqual([2, ""]);
    expect(r.err).toBe(`omniforge skill eval: ${path.join(t.base, "empty.json")} holds no trigger cases: write at least one {"query": "...", "should_trigger": true}\n`);
  });

  it("a skill agents cannot see (disabled here) is one line saying why, exit 2, no usage under it", () => {
    fs.mkdirSync(path.join(t.project, ".omniforge"), { recursive: true });
    const config = path.join(t.project, ".omniforge", "config.yaml");
    fs.writeFileSync(config, "disabled_skills: [pdf-forms]\n");
    try {
      const r = omniforge("pdf-forms");
      expect([r.code, r.out]).toEqual([2, ""]);
      expect(r.err).toMatch(/^omniforge skill eval: "pdf-forms" is not active here, so no agent can choose it: .*disabled.* \(see `omniforge skill list`\)\n$/);
    } finally {
      fs.rmSync(config);
    }
  });

  it("a wrong config.yaml is one line naming the key, exit 2, no usage under it", () => {
    fs.mkdirSync(path.join(t.project, ".omniforge"), { recursive: true });
    const config = path.join(t.project, ".omniforge", "config.yaml");
    fs.writeFileSync(config, "colour: blue\n");
    try {
      const r = omniforge("pdf-forms");
      expect([r.code, r.err]).toEqual([2, `omniforge skill eval: ${config}: colour: unknown key (known: skills.enabled, disabled_skills, precedence, listing.budget, mode, defaults)\n`]);
    } finally {
      fs.rmSync(config);
    }
  });

  it("names, queries and paths with terminal escapes are shown as text, never obeyed", () => {
    const file = setFile("escapes.json", [
      { query: "fill in the fields of this PDF form \u001b[2J", should_trigger: true },
      { query: "\u001b]0;owned\u0007 weather in Oslo", should_trigger: true },
    ]);
    const r = omniforge("pdf-forms", "--triggers", file);
    expect(r.code).toBe(1);
    expect(r.out).toContain("fill in the fields of this PDF form \\u001b[2J");
    expect(r.out).toContain("\\u001b]0;owned\\u0007 weather in Oslo");
    const unknown = omniforge("\u001b[31mno-such", "--triggers", file);
    expect(unknown.err).toContain('no skill named "\\u001b[31mno-such"');
    const missing = omniforge("pdf-forms", "--triggers", path.join(t.base, "\u001b[2Jmissing.json"));
    expect(missing.err).toContain("\\u001b[2Jmissing.json");
    for (const x of [r, unknown, missing]) expect(x.out + x.err).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
  });

  it("Ctrl-C while a model is asked ends the run with 130, as a shell reports it", async () => {
    let asked!: () => void;
    const waiting = new Promise<void>((ok) => (asked = ok));
    const silent = await serveFetch(() => {
      asked();
      return new Promise<Response>(() => {}); // the model never answers
    });
    try {
      const child = spawn(process.execPath, [path.join(repo, "bin/omniforge.mjs"), "skill", "eval", "pdf-forms", "--provider", "openai", "--home", t.home, "--project", t.project], {
        cwd: t.base,
        env: { ...process.env, HOME: t.base, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "", OPENAI_BASE_URL: `${silent.url}/v1`, OPENAI_API_KEY: "k", OMNIFORGE_MODEL: "m" },
        stdio: "ignore",
      });
      await waiting;
      child.kill("SIGINT");
      expect(await new Promise<number | null>((ok) => child.on("exit", (c) => ok(c)))).toBe(130);
    } finally {
      await silent.close();
    }
  });

  it("Ctrl-C midway: the queries that ran are reported, the one cut into is not a FAIL, and the report says it stopped", async () => {
    let second!: () => void;
    const cutting = new Promise<void>((ok) => (second = ok));
    const server = await scriptedOpenAiServer((_body, n) => {
      if (n === 1) second(); // the second query's first run is waiting for its answer
      return { toolCalls: [{ name: "skill", arguments: { name: "pdf-forms" } }] };
    }, { delayMs: 400 });
    const file = setFile("two.json", [
      { query: "fill in the fields of this PDF form", should_trigger: true },
      { query: "fill in my tax PDF form", should_trigger: true },
    ]);
    try {
      const child = spawn(process.execPath, [path.join(repo, "bin/omniforge.mjs"), "skill", "eval", "pdf-forms", "--triggers", file, "--runs", "1", "--provider", "openai", "--home", t.home, "--project", t.project], {
        cwd: t.base,
        env: { ...process.env, HOME: t.base, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "", OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "k", OMNIFORGE_MODEL: "m" },
      });
      let out = "";
      let err = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (err += d));
      await cutting;
      child.kill("SIGINT");
      expect(await new Promise<number | null>((ok) => child.on("close", (c) => ok(c)))).toBe(130);
      expect(out).toContain("pass  100%  should fire  fill in the fields of this PDF form");
      expect(out).not.toContain("fill in my tax PDF form");
      expect(out).toContain("1/1 passed");
      expect(err).toBe("stopped by SIGINT after 1 of 2 queries: the figures cover only those; the rest did not run\n");
    } finally {
      await server.close();
    }
  });
});
