// `omniforge sync` into a throw-away HOME against the real catalog route on 127.0.0.1 (a real data home and
// SQLite file): the plan and --dry-run, what lands in each agent's folder and the lock file, and that a skill
// blocked by policy goes on the next sync while skills written or edited by hand stay.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { handleCatalogRequest, handleSyncReport } from "../../http/catalog-route";
import { deploymentsOf } from "../../services/catalog-api";
import { changePolicy } from "../../services/governance/policy-change";
import { govHome } from "../../services/governance/test-support/governance";
import { useTestHome } from "../../test-support/test-home";
import { createToken } from "../../services/tokens";
import { createUser } from "../../services/users/users";
import { serveFetch } from "../../test-support/http-server";
import type { CliIO } from "../io";
import { main } from "../main";
import { removeTree } from "../../runtime/sources/checkout";
import { addSource } from "../../runtime/sources/sources";
import { skillMd, TestRepo } from "../../runtime/sources/test-support/sources";
import { runSync } from "./sync";

const h = useTestHome(govHome);
let server: Awaited<ReturnType<typeof serveFetch>>;
let home: string;
let token: string;

beforeEach(async () => {
  const alice = await createUser(h.db, { email: "alice@x.io", role: "author", password: "password1" });
  ({ token } = await createToken(h.db, { id: alice.id, role: "author" }, { name: "laptop", scopes: "catalog:read" }, { audit: h.audit, actor: { id: alice.id } }));
  h.skill("enterprise", "pdf-forms", { scripts: { "fill.sh": "#!/bin/sh\necho filled\n" }, extra: "allowed-tools: Read Bash" });
  h.skill("enterprise", "release-notes");
  h.skill("enterprise", "team-style");
  // The console's two catalog routes, as app/api/catalog/** mounts them.
  server = await serveFetch((req) =>
    new URL(req.url).pathname === "/api/catalog/deployments" ? handleSyncReport(req, { db: h.db, audit: h.audit }) : handleCatalogRequest(req, { db: h.db, dataHome: h.dataHome }),
  );
  home = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-sync-home-"));
});
afterEach(async () => {
  await server.close();
  fs.rmSync(home, { recursive: true, force: true });
});

async function sync(...extra: string[]) {
  const io = { stdout: "", stderr: "", env: { HOME: home }, cwd: home } as unknown as CliIO & { stdout: string; stderr: string };
  io.out = (s) => void (io.stdout += s);
  io.err = (s) => void (io.stderr += s);
  const code = await main(["sync", "--from", server.url, "--token", token, "--agent", "claude-code", "--agent", "codex", "--scope", "user", ...extra], io);
  return { code, out: io.stdout, err: io.stderr };
}
const claude = (...p: string[]) => path.join(home, ".claude", "skills", ...p);
const codex = (...p: string[]) => path.join(home, ".codex", "skills", ...p);
const lock = (folder: string) => JSON.parse(fs.readFileSync(path.join(folder, ".omniforge-sync.json"), "utf8")) as { skills: Record<string, { source: string; digest: string }> };
const ls = (dir: string) => fs.readdirSync(dir).filter((n) => !n.startsWith(".")).sort();

describe("omniforge sync", () => {
  it("--dry-run prints the plan for each agent's folder and writes nothing", async () => {
    const r = await sync("--dry-run");
    expect(r.code).toBe(0);
    expect(r.out).toContain(`sync from ${server.url} as alice@x.io (user scope), dry run`);
    expect(r.out).toContain(`Claude Code: ${claude()}`);
    expect(r.out).toContain(`Codex: ${codex()}`);
    expect(r.out).toMatch(/\+ add\s+pdf-forms\s+sha256:/);
    expect(r.out).toMatch(/note: pdf-forms: OmniForge enforces allowed-tools \(Read, Bash\); Claude Code only pre-approves them/);
    expect(r.out).toContain("dry run: nothing written");
    expect(fs.existsSync(claude())).toBe(false);
    expect(fs.existsSync(codex())).toBe(false);
  });

  it("writes the skills into both agents' folders with a lock file, and a second run changes nothing", async () => {
    const r = await sync();
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("synced: 6 added, 0 updated, 0 removed");
    for (const f of [claude(), codex()]) {
      expect(ls(f)).toEqual(["pdf-forms", "release-notes", "team-style"]);
      // The owner may run it (what is left for group and others follows the umask).
      expect(fs.statSync(path.join(f, "pdf-forms", "scripts", "fill.sh")).mode & 0o100).toBe(0o100);
      expect(lock(f).skills["pdf-forms"]).toMatchObject({ source: server.url, digest: expect.stringMatching(/^sha256:/) });
    }
    expect(fs.readFileSync(claude("release-notes", "SKILL.md"), "utf8")).toContain("name: release-notes");
    const where = await deploymentsOf(h.db, { id: "admin-id", role: "admin" }, "pdf-forms");
    expect(where.map((d) => [d.agent, d.scope, d.user, d.tokenName, d.host, d.digest])).toEqual(
      expect.arrayContaining([
        ["claude-code", "user", "alice@x.io", "laptop", os.hostname(), lock(claude()).skills["pdf-forms"]!.digest],
        ["codex", "user", "alice@x.io", "laptop", os.hostname(), lock(codex()).skills["pdf-forms"]!.digest],
      ]),
    );
    expect(h.audit.events.filter((e) => e.type === "catalog_synced")).toHaveLength(2);
    const again = await sync();
    expect(again.out).toMatch(/= keep\s+pdf-forms/);
    expect(again.out).toContain("synced: 0 added, 0 updated, 0 removed");
  });

  it("a skill blocked by policy is removed on the next sync; a hand-written skill and a hand-edited copy stay", async () => {
    fs.mkdirSync(claude("my-own"), { recursive: true });
    fs.writeFileSync(claude("my-own", "SKILL.md"), "---\nname: my-own\ndescription: mine\n---\nMine.\n");
    fs.mkdirSync(claude("team-style"), { recursive: true });
    fs.writeFileSync(claude("team-style", "SKILL.md"), "---\nname: team-style\ndescription: my own take\n---\nHand-written.\n");
    const first = await sync();
    expect(first.out).toMatch(/! clash\s+team-style\s+\(a folder omniforge sync did not write; left alone\)/);
    expect(fs.readFileSync(claude("team-style", "SKILL.md"), "utf8")).toContain("Hand-written.");
    expect(lock(claude()).skills["team-style"]).toBeUndefined();

    fs.appendFileSync(codex("pdf-forms", "SKILL.md"), "\nMy local tweak.\n");
    await changePolicy(h.db, { op: "block", name: "release-notes" }, { audit: h.audit, actor: { id: "admin-id" } });
    await changePolicy(h.db, { op: "block", name: "pdf-forms" }, { audit: h.audit, actor: { id: "admin-id" } });
    const plan = await sync("--dry-run");
    expect(plan.out).toMatch(/- remove\s+release-notes\s+sha256:\S+\s+\(no longer in your catalog \(revoked, blocked or deleted\)\)/);
    expect(fs.existsSync(claude("release-notes"))).toBe(true);

    const second = await sync();
    expect(second.code).toBe(0);
    expect(ls(claude())).toEqual(["my-own", "team-style"]);
    expect(ls(codex())).toEqual(["pdf-forms", "team-style"]);
    expect(second.out).toMatch(/! clash\s+pdf-forms\s+\(no longer in your catalog, but changed by hand since the last sync; left alone\)/);
    expect(fs.readFileSync(claude("my-own", "SKILL.md"), "utf8")).toContain("Mine.");
    expect(Object.keys(lock(claude()).skills)).toEqual([]);
    expect(Object.keys(lock(codex()).skills)).toEqual(["pdf-forms", "team-style"]);
    // The console's view follows: release-notes is deployed nowhere now.
    expect(await deploymentsOf(h.db, { id: "admin-id", role: "admin" }, "release-notes")).toEqual([]);
  });

  it("a changed skill is updated in place", async () => {
    await sync();
    h.skill("enterprise", "release-notes", { body: "# release-notes\n\nNew steps.\n" });
    const r = await sync();
    expect(r.out).toMatch(/~ update\s+release-notes/);
    expect(fs.readFileSync(claude("release-notes", "SKILL.md"), "utf8")).toContain("New steps.");
  });

  it("a synced copy holding what its digest leaves out (a .git, node_modules) is a clash: never replaced or removed", async () => {
    await sync();
    // The folder digest skips version control and dependency folders, so these copies still read as unchanged.
    fs.mkdirSync(claude("release-notes", ".git"));
    fs.writeFileSync(claude("release-notes", ".git", "HEAD"), "ref: refs/heads/main\n");
    fs.mkdirSync(claude("pdf-forms", "scripts", "node_modules", "dep"), { recursive: true });
    fs.writeFileSync(claude("pdf-forms", "scripts", "node_modules", "dep", "index.js"), "mine\n");
    fs.writeFileSync(claude("team-style", ".DS_Store"), "finder");
    h.skill("enterprise", "release-notes", { body: "# release-notes\n\nNew steps.\n" });
    h.skill("enterprise", "team-style", { body: "# team-style\n\nNew style.\n" });
    await changePolicy(h.db, { op: "block", name: "pdf-forms" }, { audit: h.audit, actor: { id: "admin-id" } });
    const r = await sync();
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/! clash\s+release-notes\s+\(holds "\.git", which omniforge sync did not write; left alone/);
    expect(r.out).toMatch(/! clash\s+pdf-forms\s+\(no longer in your catalog, but holds "scripts\/node_modules", which omniforge sync did not write; left alone/);
    expect(fs.readFileSync(claude("release-notes", ".git", "HEAD"), "utf8")).toContain("refs/heads/main");
    expect(fs.readFileSync(claude("pdf-forms", "scripts", "node_modules", "dep", "index.js"), "utf8")).toBe("mine\n");
    // Finder's .DS_Store is nobody's work: that copy is updated as usual.
    expect(r.out).toMatch(/~ update\s+team-style/);
    expect(fs.readFileSync(claude("team-style", "SKILL.md"), "utf8")).toContain("New style.");
    // Codex's copies, untouched by hand, follow the catalog.
    expect(ls(codex())).toEqual(["release-notes", "team-style"]);
  });

  it("--watch asks with the ETag each round and syncs again only when the catalog changed", async () => {
    const io = { stdout: "", stderr: "", env: { HOME: home }, cwd: home } as unknown as CliIO & { stdout: string; stderr: string };
    io.out = (s) => void (io.stdout += s);
    io.err = (s) => void (io.stderr += s);
    let round = 0;
    const sleep = async () => {
      // Between the first and the second poll an admin blocks a skill; the third poll finds nothing new.
      if (++round === 2) await changePolicy(h.db, { op: "block", name: "team-style" }, { audit: h.audit, actor: { id: "admin-id" } });
    };
    const code = await runSync(["--from", server.url, "--token", token, "--agent", "claude-code", "--scope", "user", "--watch", "--every", "10"], io, { rounds: 3, sleep });
    expect(code, io.stderr).toBe(0);
    expect(io.stdout.match(/^synced:.*$/gm)).toEqual(["synced: 3 added, 0 updated, 0 removed", "synced: 0 added, 0 updated, 1 removed"]);
    expect(ls(claude())).toEqual(["pdf-forms", "release-notes"]);
  });

  it("a damaged lock file stops sync for that run instead of letting it forget what it owns", async () => {
    await sync();
    fs.writeFileSync(path.join(claude(), ".omniforge-sync.json"), "{ not json");
    h.skill("enterprise", "release-notes", { body: "# release-notes\n\nNew steps.\n" });
    const r = await sync();
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/\.omniforge-sync\.json is not a lock file omniforge sync can read/);
    expect(fs.readFileSync(claude("release-notes", "SKILL.md"), "utf8")).not.toContain("New steps.");
  });

  it("a bad token stops before anything is written, with the console's reason", async () => {
    token = "omf_wrong";
    const r = await sync();
    expect(r.code).toBe(1);
    expect(r.err).toContain("the console refused: 401");
    expect(fs.existsSync(claude())).toBe(false);
  });

  it("warns when an agent would read the same skills twice: its own folder and the shared .agents/skills this sync fills", async () => {
    const project = fs.mkdtempSync(path.join(home, "repo-"));
    const io = { stdout: "", stderr: "", env: { HOME: home }, cwd: project } as unknown as CliIO & { stdout: string; stderr: string };
    io.out = (t) => void (io.stdout += t);
    io.err = (t) => void (io.stderr += t);
    const run = (...agents: string[]) => main(["sync", "--from", server.url, "--token", token, ...agents.flatMap((a) => ["--agent", a]), "--scope", "project", "--dry-run"], io);
    // Codex's project folder is the shared .agents/skills, which Gemini CLI reads besides .gemini/skills.
    expect(await run("codex", "gemini")).toBe(0);
    expect(io.stdout).toContain(`note: Gemini CLI also reads ${path.join(project, ".agents", "skills")}, which this sync fills for Codex: it will see each skill twice.`);
    // Claude Code reads only its own folder: nothing to warn about.
    io.stdout = "";
    expect(await run("codex", "claude-code")).toBe(0);
    expect(io.stdout).not.toContain("twice");
  });

  it("records in the lock file the git repository and commit a source's skill came from, and none for a layer's own", async () => {
    const origin = new TestRepo(home, "org");
    const commit = origin.write({ "skills/from-git/SKILL.md": skillMd("from-git", "A skill from git. Use when asked for git things.") }).commit("one");
    await addSource({ home: h.dataHome.home, env: process.env }, { name: "org", url: origin.bare, path: "skills" });
    try {
      expect((await sync()).code).toBe(0);
      const entries = lock(claude()).skills as Record<string, { provenance?: unknown }>;
      expect(entries["from-git"]!.provenance).toEqual({ name: "org", url: origin.bare, path: "skills", commit });
      expect(entries["release-notes"]!.provenance).toBeUndefined();
      expect(fs.readFileSync(claude("from-git", "SKILL.md"), "utf8")).toContain("A skill from git.");
    } finally {
      removeTree(path.join(h.dataHome.home, "sources"));
    }
  });
});
