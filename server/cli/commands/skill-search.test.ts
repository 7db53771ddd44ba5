// `omniforge skill search` as a person (or a measuring script) runs it: the real bin, real folders, a catalog
// folder given with --skills, the same resolution as `skill list`.
import { execFile, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempLayers, type TempLayers, writeSkill } from "../../runtime/registry/test-support/registry";
import { scriptedEmbeddings } from "../../runtime/search/test-support/search";

const repo = path.resolve(import.meta.dirname, "../../..");
let t: TempLayers;
let catalog: string;

function omniforge(...args: string[]) {
  const r = spawnSync(process.execPath, [path.join(repo, "bin/omniforge.mjs"), "skill", "search", ...args, "--home", t.home, "--project", t.project], {
    cwd: t.base,
    encoding: "utf8",
    env: { ...process.env, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "" },
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  t = tempLayers();
  catalog = path.join(t.base, "catalog");
  writeSkill(catalog, "pdf-form-filler", { rel: "acme/pdf-form-filler", description: "Fill in PDF forms field by field and flatten the result." });
  writeSkill(catalog, "xlsx-report", { rel: "acme/xlsx-report", description: "Build Excel workbooks with charts and pivot tables." });
  writeSkill(catalog, "pptx-deck", { rel: "other/pptx-deck", description: "Create PowerPoint decks from an outline." });
  writeSkill(catalog, "vault-signer", { rel: "other/vault-signer", description: "Sign PDF forms with keys from the vault." });
  for (let i = 0; i < 80; i++) writeSkill(catalog, `chore-${i}`, { rel: `bulk/chore-${i}`, description: `Routine chore number ${i} for the operations team, done every week on schedule.` });
  writeSkill(path.join(t.project, ".claude", "skills"), "notes", { description: "Write meeting notes into the wiki." });
});
afterAll(() => t.cleanup());

describe("omniforge skill search", () => {
  it("--json prints exactly one line per request with results, abstain and the listing the agent would get", () => {
    const r = omniforge("put this data in a spreadsheet with a pivot table", "--skills", catalog, "--json", "--limit", "2", "--budget", "900");
    expect(r.code).toBe(0);
    const lines = r.out.trim().split("\n");
    expect(lines).toHaveLength(1);
    const o = JSON.parse(lines[0]!);
    expect(Object.keys(o)).toEqual(["id", "request", "results", "abstain", "listing"]);
    expect(o.request).toBe("put this data in a spreadsheet with a pivot table");
    expect(o.abstain).toBe(false);
    expect(o.results.length).toBeGreaterThanOrEqual(1);
    expect(o.results.length).toBeLessThanOrEqual(2);
    expect(Object.keys(o.results[0])).toEqual(["name", "layer", "plugin", "dir", "score", "why"]);
    expect(o.results[0]).toMatchObject({ name: "xlsx-report", layer: "project", plugin: null, dir: path.join(catalog, "acme/xlsx-report") });
    expect(o.results[0].why).toMatch(/^name matches 'spreadsheet' \(as 'xlsx'/);
    expect(Object.keys(o.listing)).toEqual(["chars", "withDescription", "nameOnly", "omitted"]);
    expect(o.listing.chars).toBeLessThanOrEqual(900);
    expect(o.listing.withDescription[0]).toBe(path.join(catalog, "acme/xlsx-report"));
    expect(o.listing.withDescription.length + o.listing.nameOnly.length + o.listing.omitted).toBe(85);
    expect(o.listing.omitted).toBeGreaterThan(0);
  });

  it("answers a batch from --queries (JSON Lines) in order, abstaining where no skill serves the request", () => {
    const q = path.join(t.base, "q.jsonl");
    fs.writeFileSync(q, ['{"id":"a","request":"fill out this pdf form"}', "", '{"id":7,"request":"what is the capital of Peru"}', '{"id":"c","request":"write up the meeting notes"}'].join("\n"));
    const r = omniforge("--queries", q, "--skills", catalog, "--json");
    expect(r.code).toBe(0);
    const rows = r.out.trim().split("\n").map((l) => JSON.parse(l));
    expect(rows.map((x) => x.id)).toEqual(["a", "7", "c"]);
    expect(rows[0].results[0].name).toBe("pdf-form-filler");
    expect(rows[1].abstain).toBe(true);
    expect(rows[2].results[0]).toMatchObject({ name: "notes", dir: path.join(t.project, ".claude/skills/notes") });
  });

  it("obeys the same policy and scope as skill list: a blocked skill is never found", () => {
    const policy = path.join(t.base, "policy.json");
    fs.writeFileSync(policy, JSON.stringify({ blockedNames: ["pdf-form-filler"] }));
    const r = omniforge("fill out this pdf form", "--skills", catalog, "--json", "--policy", policy, "--limit", "10");
    const o = JSON.parse(r.out);
    expect(o.results.map((x: { name: string }) => x.name)).not.toContain("pdf-form-filler");
    expect(o.results[0].name).toBe("vault-signer");
    expect([...o.listing.withDescription, ...o.listing.nameOnly]).not.toContain(path.join(catalog, "acme/pdf-form-filler"));
  });

  it("refuses a wrong --policy file with one line and exit 2, as skill list and policy import do", () => {
    const policy = path.join(t.base, "bad-policy.json");
    fs.writeFileSync(policy, JSON.stringify({ disabled: "x" }));
    const r = omniforge("fill out this pdf form", "--skills", catalog, "--policy", policy);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^omniforge skill search: the policy file \S+bad-policy\.json was refused: disabled: must be a list\n/);
    expect(r.err).not.toContain("TypeError");
  });

  it("prints a readable ranking with the why, and the listing summary", () => {
    const r = omniforge("make slides for the board", "--skills", catalog);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^1\. pptx-deck {2}\(project, score [0-9.]+\) {2}\//);
    expect(r.out).toMatch(/'slides' \(as /);
    expect(r.out).toMatch(/listing \(\d+ of 8000 characters\)/);
  });

  it("refuses bad input with a clear message and exit 2", () => {
    const q = path.join(t.base, "bad.jsonl");
    fs.writeFileSync(q, '{"id":"a","request":"x"}\n{"id":"b"}\n');
    const bad = omniforge("--queries", q, "--skills", catalog);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('line 2 has no "request" string');
    expect(omniforge("x", "--limit", "0").err).toContain("--limit must be a positive whole number");
    expect(omniforge("x", "--mode", "chat").err).toContain("--mode must be one of tool, prompt, orchestrated");
    expect(omniforge("x", "--skills", path.join(t.base, "missing")).err).toContain("not a folder");
    expect(omniforge().code).toBe(2);
    // A device never ends and a pipe never starts: both are refused before a byte is read.
    const zero = omniforge("--queries", "/dev/zero", "--skills", catalog);
    expect([zero.code, zero.err.split("\n")[0]]).toEqual([2, "omniforge skill search: cannot read /dev/zero: /dev/zero is a device, not a regular file"]);
  });

  it("names, paths and the request reach the terminal written out, never as escape sequences", () => {
    const hostile = "esc\u001b[31mred\u001b]0;TITLE\u0007";
    const dir = path.join(t.base, "hostile");
    writeSkill(dir, hostile, { rel: hostile, description: "Rename the terminal title. Use when asked to retitle." });
    const r = omniforge("retitle the terminal \u001b[2J", "--skills", dir);
    expect(r.code).toBe(0);
    expect(r.out).toContain("esc\\u001b[31mred");
    expect(r.out).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
  });

  it("a wrong config.yaml is one line naming the key, exit 2, no usage under it (as skill list and eval)", () => {
    fs.mkdirSync(path.join(t.project, ".omniforge"), { recursive: true });
    const config = path.join(t.project, ".omniforge", "config.yaml");
    fs.writeFileSync(config, "colour: blue\n");
    try {
      const r = omniforge("pdf forms");
      expect(r.code).toBe(2);
      expect(r.err).toBe(`omniforge skill search: ${config}: colour: unknown key (known: skills.enabled, disabled_skills, precedence, listing.budget, mode, defaults)\n`);
    } finally {
      fs.rmSync(config);
    }
  });

  it("with an embeddings endpoint, fuses meaning with words and says which found each; a failing endpoint is said once", async () => {
    const server = await scriptedEmbeddings();
    try {
      const q = path.join(t.base, "q-meaning.jsonl");
      fs.writeFileSync(q, ['{"id":"a","request":"fill out this pdf form"}', '{"id":"b","request":"put the invoice numbers in a spreadsheet"}'].join("\n"));
      const env = { OMNIFORGE_EMBEDDINGS_URL: server.url, OMNIFORGE_EMBEDDINGS_MODEL: "scripted-1" };
      const ok = await omniforgeAsync(env, "--queries", q, "--skills", catalog, "--json");
      expect(ok.err).toBe("");
      expect(ok.code).toBe(0);
      const lines = ok.out.trim().split("\n").map((l) => JSON.parse(l));
      expect(lines[0].results[0].name).toBe("pdf-form-filler");
      expect(lines[0].results[0].why).toMatch(/; found by words #1, meaning #\d+ \(similarity [01]\.\d\d\)$/);
      expect(server.calls).toEqual([64, 21, 1, 1]); // the 85 skills once (64 a call), then each request
      expect(fs.readdirSync(path.join(t.home, "embeddings"))).toHaveLength(1);

      server.mode = "error";
      fs.rmSync(path.join(t.home, "embeddings"), { recursive: true });
      const down = await omniforgeAsync(env, "--queries", q, "--skills", catalog, "--json");
      expect(down.code).toBe(0);
      expect(down.err).toBe("omniforge skill search: the embeddings endpoint failed (embeddings.http: the server answered 500): ranked by words only until it answers again (tried again in 30 s, then less often while it fails)\n");
      const words = down.out.trim().split("\n").map((l) => JSON.parse(l));
      expect(words.map((l: { results: { name: string }[] }) => l.results[0]!.name)).toEqual(["pdf-form-filler", "xlsx-report"]);
      expect(words[0].results[0].why).not.toMatch(/found by/);
    } finally {
      await server.close();
    }
  });
});

/** The bin as a child this process waits for without blocking (a server of this process must answer it). */
async function omniforgeAsync(extraEnv: Record<string, string>, ...args: string[]) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    execFile(
      process.execPath,
      [path.join(repo, "bin/omniforge.mjs"), "skill", "search", ...args, "--home", t.home, "--project", t.project],
      { cwd: t.base, encoding: "utf8", env: { ...process.env, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "", ...extraEnv }, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
      (error, out, err) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out, err }),
    );
  });
}
