// `omniforge source` through the real bin on a console's data home, with a bare repository made here and git's own
// http-backend on 127.0.0.1: what a person sees at each step, what the agent's listing serves, and the audit rows.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTree } from "../../runtime/sources/checkout";
import { stateFile } from "../../runtime/sources/state";
import { gitHttpServer, skillMd, TestRepo } from "../../runtime/sources/test-support/sources";
import { useSkillsTestHome } from "../../test-support/test-home";
import { changePolicy } from "../../services/governance";
import { chainVerifies } from "../../services/audit/test-support/audit";
import type { CliIO } from "../io";
import { command } from "./source";

const repo = path.resolve(import.meta.dirname, "../../..");
const h = useSkillsTestHome({ once: true });
afterAll(() => removeTree(path.join(h.dataHome.home, "sources")));

/** The bin, run asynchronously: the HTTP server answering git lives in this process. */
function omniforge(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(repo, "bin/omniforge.mjs"), ...args, "--home", h.dataHome.home],
      { cwd: h.dir, encoding: "utf8", env: { ...process.env, OMNIFORGE_HOME: "", HOME: h.dir, OMNIFORGE_CACHE_DIR: "off" }, timeout: 120_000 },
      (e, out, err) => resolve({ code: e ? Number(e.code ?? 1) : 0, out, err }),
    );
  });
}

const sourceEvents = () =>
  (h.db.$client.prepare(`SELECT type, actor_id AS actor, layer, details FROM audit_events WHERE type LIKE 'source_%' ORDER BY id`).all() as { type: string; actor: string; layer: string; details: string }[]).map(
    (r) => ({ ...r, details: JSON.parse(r.details) as Record<string, unknown> }),
  );

async function skillList(): Promise<{ name: string; layer: string; plugin?: string; status: string; description: string; source?: Record<string, string> }[]> {
  const r = await omniforge("skill", "list", "--json", "--project", h.dataHome.projectRoot);
  expect(r.err).toBe("");
  return JSON.parse(r.out);
}

/** The skill listing the agent is given (agent run's first event, the offline provider: no model needed). */
async function agentListing(): Promise<string> {
  const r = await omniforge("agent", "run", "alpha please", "--json", "--project", h.dataHome.projectRoot);
  return (JSON.parse(r.out.split("\n")[0]!) as { listing: { text: string } }).listing.text;
}

const describeOf = async (name: string) => (await skillList()).find((s) => s.name === name && s.status === "active")?.description;

describe("omniforge source", () => {
  it("add, list, update after a push, rollback and remove, with provenance in skill list and each step audited", async () => {
    const origin = new TestRepo(h.dir, "org-skills");
    origin.write({
      "skills/alpha/SKILL.md": skillMd("alpha", "Alpha, first edition. Use when asked for alpha."),
      "skills/beta/SKILL.md": skillMd("beta", "Beta helps. Use when asked for beta."),
    });
    const c1 = origin.commit("two skills");
    const add = await omniforge("source", "add", "org", "--git", origin.bare, "--path", "skills");
    expect(add).toEqual({ code: 0, out: `added source org: ${origin.bare} HEAD at ${c1.slice(0, 12)}, 2 skills in the enterprise layer\n`, err: "" });

    const listed = await skillList();
    const source = { name: "org", url: origin.bare, path: "skills", commit: c1 };
    expect(listed.filter((s) => s.source)).toEqual([
      expect.objectContaining({ name: "alpha", layer: "enterprise", status: "active", source }),
      expect.objectContaining({ name: "beta", layer: "enterprise", status: "active", source }),
    ]);

    const c2 = origin.write({ "skills/alpha/SKILL.md": skillMd("alpha", "Alpha, second edition. Use when asked for alpha.") }).commit("alpha reworded");
    const list = await omniforge("source", "list", "--json");
    expect(JSON.parse(list.out)).toEqual([{ name: "org", url: origin.bare, ref: "HEAD", path: "skills", layer: "enterprise", commit: c1, previous: null, skills: 2, behind: 1, head: c2 }]);
    expect((await omniforge("source", "list")).out).toBe(`org  ${origin.bare}  HEAD  skills  ${c1.slice(0, 12)}  2 skills  enterprise  1 commit behind\n`);
    expect(await describeOf("alpha")).toBe("Alpha, first edition. Use when asked for alpha.");

    expect((await omniforge("source", "update", "org")).out).toBe(`source org: ${c1.slice(0, 12)} -> ${c2.slice(0, 12)}\n`);
    expect(await describeOf("alpha")).toBe("Alpha, second edition. Use when asked for alpha.");
    expect(await agentListing()).toContain(`"alpha": Alpha, second edition. Use when asked for alpha.`);
    expect((await omniforge("source", "update", "org")).out).toBe(`source org is at ${c2.slice(0, 12)} already; nothing changed\n`);

    expect((await omniforge("source", "rollback", "org")).out).toBe(`source org rolled back: ${c2.slice(0, 12)} -> ${c1.slice(0, 12)}\n`);
    expect(await describeOf("alpha")).toBe("Alpha, first edition. Use when asked for alpha.");
    expect(await agentListing()).toContain(`"alpha": Alpha, first edition. Use when asked for alpha.`);

    expect((await omniforge("source", "remove", "org")).out).toBe(`removed source org (was at ${c1.slice(0, 12)})\n`);
    expect(await describeOf("alpha")).toBeUndefined();
    expect(await omniforge("source", "update", "org")).toMatchObject({ code: 1, err: `omniforge source update: no source named "org"\n` });

    expect(sourceEvents().map((e) => [e.type, e.actor, e.layer, e.details.from, e.details.to, e.details.url])).toEqual([
      ["source_added", "cli", "enterprise", null, c1, origin.bare],
      ["source_updated", "cli", "enterprise", c1, c2, origin.bare],
      ["source_rolled_back", "cli", "enterprise", c2, c1, origin.bare],
      ["source_removed", "cli", "enterprise", c1, null, origin.bare],
    ]);
    // Fifteen runs of the real bin, each a process start: under a loaded machine's full suite, more than the default.
  }, 120_000);

  it("through git's http-backend on 127.0.0.1, with a password in the URL that is never printed, stored in the state file or audited", async () => {
    const password = "s3cret-Pa55";
    const served = path.join(h.dir, "served");
    fs.mkdirSync(served);
    const origin = new TestRepo(served, "team");
    origin.write({ "gamma/SKILL.md": skillMd("gamma", "Gamma over HTTP. Use when asked for gamma.") });
    const c1 = origin.commit("gamma");
    const server = await gitHttpServer(served, { password });
    try {
      const url = `${server.url.replace("http://", `http://deploy:${password}@`)}/team.git`;
      const shown = `${server.url.replace("http://", "http://deploy:***@")}/team.git`;
      const add = await omniforge("source", "add", "team", "--git", url, "--layer", "plugin");
      expect(add).toEqual({ code: 0, out: `added source team: ${shown} HEAD at ${c1.slice(0, 12)}, 1 skill in the plugin layer as team\n`, err: "" });
      expect((await skillList()).find((s) => s.name === "gamma")).toMatchObject({ layer: "plugin", plugin: "team", status: "active", source: { name: "team", url: shown, commit: c1 } });

      const c2 = origin.write({ "gamma/SKILL.md": skillMd("gamma", "Gamma, updated over HTTP. Use when asked for gamma.") }).commit("gamma 2");
      const list = await omniforge("source", "list", "--json");
      expect(JSON.parse(list.out)[0]).toMatchObject({ name: "team", url: shown, behind: 1, head: c2 });
      const update = await omniforge("source", "update", "team");
      expect(update.out).toBe(`source team: ${c1.slice(0, 12)} -> ${c2.slice(0, 12)}\n`);
      expect(await describeOf("gamma")).toBe("Gamma, updated over HTTP. Use when asked for gamma.");

      // A wrong password: git's refusal is shown, the password is not.
      const wrong = await omniforge("source", "add", "other", "--git", url.replace(password, "Wr0ng-pass"));
      expect(wrong.code).toBe(1);
      expect(wrong.err).toMatch(/^omniforge source add: git fetch failed: .*\n$/);
      expect(wrong.err).not.toContain("Wr0ng-pass");

      const everything = [add, list, update, wrong].flatMap((r) => [r.out, r.err]).join("\n");
      expect(everything).not.toContain(password);
      expect(fs.readFileSync(stateFile(h.dataHome.home), "utf8")).not.toContain(password);
      expect(JSON.stringify(sourceEvents())).not.toContain(password);
      expect(sourceEvents().filter((e) => e.details.source === "team").map((e) => e.details.url)).toEqual([shown, shown]);
      // git got it where only the data home's owner reads it.
      const secret = path.join(h.dataHome.home, "secrets", "sources", "team.url");
      expect([fs.readFileSync(secret, "utf8"), fs.statSync(secret).mode & 0o777]).toEqual([url, 0o600]);
      await omniforge("source", "remove", "team");
      expect(fs.existsSync(secret)).toBe(false);
    } finally {
      await server.close();
    }
  }, 120_000);

  it("a repository given as a relative folder is the one beside the person running the command", async () => {
    const origin = new TestRepo(h.dir, "relative");
    const c = origin.write({ "delta/SKILL.md": skillMd("delta", "Delta. Use when asked for delta.") }).commit("delta");
    const add = await omniforge("source", "add", "rel", "--git", "./relative.git");
    expect(add).toMatchObject({ code: 0, out: `added source rel: ${origin.bare} HEAD at ${c.slice(0, 12)}, 1 skill in the enterprise layer\n` });
    await omniforge("source", "remove", "rel");
  });

  it("a usage problem is one line and the usage; a bad transport is refused before git runs", async () => {
    expect(await omniforge("source", "add", "x")).toMatchObject({ code: 2, err: expect.stringMatching(/^omniforge source add: --git URL is required\nusage: omniforge source add/) });
    expect(await omniforge("source", "add", "x", "--git", "ext::sh -c id")).toEqual({ code: 1, out: "", err: "omniforge source add: the repository URL is empty or holds spaces or control characters\n" });
    expect(await omniforge("source", "add", "x", "--git", "ext::id")).toEqual({ code: 1, out: "", err: "omniforge source add: git's remote helpers (transport::address) are not allowed for sources\n" });
  });

  it("with approvals of source updates on, update proposes: the pin stays until the console approves each changed skill", async () => {
    await changePolicy(h.db, { op: "setRequireApproval", sources: true }, { audit: h.audit, actor: { id: "admin-id" } });
    try {
      const origin = new TestRepo(h.dir, "reviewed");
      origin.write({ "delta/SKILL.md": skillMd("delta", "Delta, first edition. Use when asked for delta.") });
      const c1 = origin.commit("delta");
      expect((await omniforge("source", "add", "reviewed", "--git", origin.bare)).code).toBe(0);
      const c2 = origin.write({ "delta/SKILL.md": skillMd("delta", "Delta, second edition. Use when asked for delta.") }).commit("delta reworded");
      expect(await omniforge("source", "update", "reviewed")).toEqual({
        code: 0,
        out: `source reviewed: 1 changed skill of ${c2.slice(0, 12)} to approve in the console (Sources page); it stays at ${c1.slice(0, 12)} until then\n`,
        err: "",
      });
      expect(await describeOf("delta")).toBe("Delta, first edition. Use when asked for delta.");
      const pending = h.db.$client.prepare(`SELECT skill, status, source, from_commit AS "from", to_commit AS "to" FROM approvals WHERE source IS NOT NULL`).all();
      expect(pending).toEqual([{ skill: "delta", status: "pending", source: "reviewed", from: c1, to: c2 }]);
      expect(sourceEvents().at(-1)).toMatchObject({ type: "source_update_proposed", actor: "cli", details: { from: c1, to: c2, skills: ["delta"] } });
      expect((await omniforge("source", "remove", "reviewed")).code).toBe(0);
    } finally {
      await changePolicy(h.db, { op: "setRequireApproval", sources: false }, { audit: h.audit, actor: { id: "admin-id" } });
    }
  }, 120_000);
});

describe("omniforge source in this process", () => {
  // The console's connection (openDb's, one per file in a process) is the console's: a command that only borrowed
  // it must leave it open, or whatever shares the process (a test, the console's writer) loses its database.
  it("leaves the process's connection to console.db open after each change, and the chain verifies", async () => {
    const origin = new TestRepo(h.dir, "in-process");
    const c = origin.write({ "epsilon/SKILL.md": skillMd("epsilon", "Epsilon. Use when asked for epsilon.") }).commit("epsilon");
    let out = "";
    let err = "";
    const io: CliIO = { out: (t) => void (out += t), err: (t) => void (err += t), env: { HOME: h.dir, OMNIFORGE_CACHE_DIR: "off" }, cwd: h.dir };
    expect(await command("add").run(["eps", "--git", origin.bare, "--home", h.dataHome.home], io)).toBe(0);
    expect(await command("remove").run(["eps", "--home", h.dataHome.home], io)).toBe(0);
    expect([out, err]).toEqual([`added source eps: ${origin.bare} HEAD at ${c.slice(0, 12)}, 1 skill in the enterprise layer\nremoved source eps (was at ${c.slice(0, 12)})\n`, ""]);
    expect(h.db.$client.open).toBe(true);
    expect(sourceEvents().filter((e) => e.details.source === "eps").map((e) => e.type)).toEqual(["source_added", "source_removed"]);
    expect(await chainVerifies(h)).toMatchObject({ ok: true });
  }, 120_000);
});
