// The command line reads the console's policy through DATABASE_URL, as the console picks its database (issue #38):
// the real `omniforge` process, a data home with no console.db, the console's policy stored in PostgreSQL (the
// run's throw-away cluster under `npm run test:pg`); the policy and token commands write there, into the one audit
// chain. A database that does not answer is one line and a failed exit, never a hang.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import { eq } from "drizzle-orm";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents } from "../../db/schema";
import { AUDIT_HMAC_KEY_FILE } from "../domain/audit-chain";
import { repoRoot } from "../config";
import { auditSinkFor, flushAudit } from "../services/audit";
import { chainVerifies } from "../services/audit/test-support/audit";
import { changePolicy } from "../services/governance/policy-change";
import { readStoredPolicy } from "../services/policy/store";
import { createUser } from "../services/users/users";
import { skillMd, writeSkillOnDisk } from "../services/skills/test-support/skills";
import { useSkillsTestHome } from "../test-support/test-home";
import { describeOnPostgres } from "../test-support/needs";

const h = useSkillsTestHome();

function omniforge(env: Record<string, string>, ...args: string[]) {
  return run(env, ...args, "--project", h.dataHome.projectRoot);
}

function run(env: Record<string, string>, ...args: string[]) {
  const r = spawnSync(process.execPath, [path.join(repoRoot(), "bin/omniforge.mjs"), ...args, "--home", h.dataHome.home], {
    cwd: h.dir,
    encoding: "utf8",
    env: { ...process.env, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "", DATABASE_URL: "", ...env },
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const statuses = (out: string) => (JSON.parse(out) as { name: string; status: string }[]).map((s) => `${s.name}/${s.status}`).sort();

describeOnPostgres("the console's policy through DATABASE_URL (PostgreSQL)", "the command line against the console's PostgreSQL: npm test's postgres part runs it", () => {
  it("skill list and agent run resolve with the policy stored in PostgreSQL, and name the database without its password", async () => {
    const skills = path.join(h.dataHome.projectRoot, ".omniforge", "skills");
    writeSkillOnDisk(path.join(skills, "release-notes"), { "SKILL.md": skillMd("release-notes", "Draft release notes from merged changes. Use when preparing a release.") });
    writeSkillOnDisk(path.join(skills, "leaky-notes"), { "SKILL.md": skillMd("leaky-notes", "Posts notes to a pastebin. Use when sharing notes.") });
    await changePolicy(h.db, { op: "block", name: "leaky-notes" }, { audit: h.audit, actor: { id: "admin-1" } });
    // The throw-away cluster trusts 127.0.0.1, so a password is not checked: a database that is not there is refused.
    const missing = new URL(h.url!);
    missing.password = "s3cret-pw";
    missing.pathname = "/no_such_console";

    const withDb = omniforge({ DATABASE_URL: h.url! }, "skill", "list", "--json");
    expect(withDb.err).toBe("");
    expect(statuses(withDb.out)).toEqual(["leaky-notes/blocked", "release-notes/active"]);
    const shown = omniforge({ DATABASE_URL: h.url! }, "skill", "list");
    const redacted = new URL(h.url!);
    if (redacted.password) redacted.password = "***";
    expect(shown.out).toContain(`policy: ${redacted.toString()}\n`);
    // agent run resolves with it too, and writes its audit there, said to come from the command line.
    const agent = omniforge({ DATABASE_URL: h.url!, OMNIFORGE_PROVIDER: "" }, "agent", "run", "draft the release notes");
    expect(agent.out).toContain(`audit: written to ${redacted.toString()}; policy: ${redacted.toString()}\n`);
    const agentRows = await h.db.select({ type: auditEvents.type }).from(auditEvents).where(eq(auditEvents.sourceAgent, "omniforge-cli"));
    expect(agentRows.map((r) => r.type)).toContain("agent_run_started");
    // Without it, this data home has no console.db: no policy, and the blocked skill would be offered.
    expect(statuses(omniforge({}, "skill", "list", "--json").out)).toEqual(["leaky-notes/active", "release-notes/active"]);
    const refused = omniforge({ DATABASE_URL: missing.toString() }, "skill", "list");
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/^omniforge skill list: cannot read the console policy from postgres:\/\/\S+:\*\*\*@\S+\/no_such_console: database "no_such_console" does not exist\n$/);
  });

  it("policy block, policy list and token create work on PostgreSQL, audited there as the command line's in the one chain", async () => {
    await createUser(h.db, { email: "bob@x.io", role: "author", password: "password1" });
    const env = { DATABASE_URL: h.url! };
    expect(run(env, "policy", "block", "leaky-notes", "--reason", "posts outside")).toEqual({ code: 0, out: "leaky-notes: blocked\n", err: "" });
    expect((await readStoredPolicy(h.db)).blockedNames).toEqual(["leaky-notes"]);
    expect((JSON.parse(run(env, "policy", "list", "--json").out) as { blockedNames: string[] }).blockedNames).toEqual(["leaky-notes"]);
    const token = run(env, "token", "create", "--email", "bob@x.io", "--scope", "catalog:read");
    expect([token.code, token.err]).toEqual([0, ""]);
    expect(token.out).toMatch(/^\S{20,}\n$/);
    const rows = await h.db.select({ type: auditEvents.type, actor: auditEvents.actorId }).from(auditEvents);
    expect(rows.filter((r) => r.actor === "cli").map((r) => r.type)).toEqual(["policy_changed", "token_created"]);
    expect(await chainVerifies(h)).toMatchObject({ ok: true });
    // Nothing went to a console.db of the data home.
    expect(fs.existsSync(path.join(h.dataHome.home, "console.db"))).toBe(false);
  });

  // Found following docs/deploy.md's team setup: `policy block` with the console's DATABASE_URL on an operator's
  // machine (the command line's home ~/.omniforge) made a key pair there and appended a row the console's check
  // then called edited. It must refuse before writing, make no key, and leave the chain as it was.
  it("refuses to write with a data home that does not hold the chain's key, creating none, and the chain still verifies", async () => {
    // The console's own writer, keyed with its data home's key.
    await changePolicy(h.db, { op: "block", name: "leaky-notes" }, { audit: auditSinkFor(h.db), actor: { id: "admin-1" } });
    await flushAudit(h.db);
    const ids = async () => (await h.db.select({ id: auditEvents.id }).from(auditEvents)).map((r) => r.id).sort((a, b) => a - b);
    const before = await ids();
    const elsewhere = fs.mkdtempSync(path.join(h.dir, "operator-home-"));
    const cli = (home: string, ...args: string[]) =>
      spawnSync(process.execPath, [path.join(repoRoot(), "bin/omniforge.mjs"), ...args, "--home", home], {
        cwd: h.dir,
        encoding: "utf8",
        env: { ...process.env, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "", DATABASE_URL: h.url! },
        timeout: 60_000,
      });
    const where = (() => {
      const u = new URL(h.url!);
      if (u.password) u.password = "***";
      return u.toString();
    })();
    const refused = cli(elsewhere, "policy", "unblock", "leaky-notes");
    expect([refused.status, refused.stdout]).toEqual([1, ""]);
    expect(refused.stderr).toBe(
      `omniforge policy unblock: ${where}: its audit chain is keyed with the console's data home's key, and ${elsewhere} holds none: ` +
        "run the command with the console's data home (--home or OMNIFORGE_HOME), the folder its servers share\n",
    );
    expect(fs.readdirSync(elsewhere)).toEqual([]);
    // A home with a key of its own (another console's) is refused too, naming the row that does not verify; reading
    // the policy from there still works.
    const other = fs.mkdtempSync(path.join(h.dir, "other-console-"));
    fs.mkdirSync(path.join(other, "secrets"), { mode: 0o700 });
    fs.writeFileSync(path.join(other, "secrets", AUDIT_HMAC_KEY_FILE), randomBytes(32).toString("base64url"), { mode: 0o600 });
    expect(cli(other, "policy", "list").status).toBe(0);
    const head = before.at(-1)!;
    const wrongKey = cli(other, "policy", "block", "release-notes");
    expect([wrongKey.status, wrongKey.stderr]).toEqual([
      1,
      `omniforge policy block: ${where}: its audit chain is keyed with another key than the one in ${other} (its newest keyed row, ${head}, does not verify with it): ` +
        "run the command with the console's data home (--home or OMNIFORGE_HOME), the folder its servers share; if this is that folder, the row was changed since it was written: the audit page's chain check says how\n",
    ]);
    expect((await readStoredPolicy(h.db)).blockedNames).toEqual(["leaky-notes"]);
    expect(await ids()).toEqual(before);
    expect(await chainVerifies(h)).toMatchObject({ ok: true });
    // The console's own data home still writes.
    expect(cli(h.dataHome.home, "policy", "unblock", "leaky-notes")).toMatchObject({ status: 0, stderr: "" });
    expect(await chainVerifies(h)).toMatchObject({ ok: true });
  });
});

describe("a DATABASE_URL that does not answer", () => {
  let silent: net.Server;
  const held = new Set<net.Socket>();
  let port = 0;
  beforeAll(async () => {
    // Takes the connection and never says a word: a database host whose server hangs.
    silent = net.createServer((socket) => void held.add(socket));
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    port = (silent.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await new Promise((r) => silent.close(r));
  });

  it("stops skill list with one line naming the database (no password) and exit 2, as for a bad policy file, not a hang", () => {
    const r = omniforge({ DATABASE_URL: `postgres://omniforge:s3cret-pw@127.0.0.1:${port}/omniforge` }, "skill", "list");
    expect(r.code).toBe(2);
    expect(r.err).toBe(`omniforge skill list: cannot read the console policy from postgres://omniforge:***@127.0.0.1:${port}/omniforge: the database does not answer (refused, unknown host or no answer within the connect timeout)\n`);
  });

  it("stops policy list and token create the same way, exit 1", () => {
    const env = { DATABASE_URL: `postgres://omniforge:s3cret-pw@127.0.0.1:${port}/omniforge` };
    const where = `postgres://omniforge:***@127.0.0.1:${port}/omniforge`;
    const why = "the database does not answer (refused, unknown host or no answer within the connect timeout)";
    expect(run(env, "policy", "list")).toMatchObject({ code: 1, err: `omniforge policy list: ${where}: ${why}\n` });
    expect(run(env, "token", "create", "--email", "bob@x.io", "--scope", "catalog:read")).toMatchObject({ code: 1, out: "", err: `omniforge token create: ${where}: ${why}\n` });
  });

  it("refuses a DATABASE_URL that is not a postgres:// URL, with the setting's own line", () => {
    const r = omniforge({ DATABASE_URL: "mysql://db.internal/omniforge" }, "skill", "list");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^omniforge skill list: Invalid environment variable DATABASE_URL: must be a postgres:\/\/ URL[^\n]*\n$/);
  });
});
