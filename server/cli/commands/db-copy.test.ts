// `omniforge db copy` from a console.db the services filled (users, sign-ins, tokens, skill history, drafts, the
// playground, the policy, thousands of audit rows with signed checkpoints) into a throw-away PostgreSQL cluster:
// every row arrives, the chain verifies there with the data home's keys, a second copy into the same database is
// refused, a tampered source chain is named, and a URL's password is never printed.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { useTestPostgres } from "../../../db/test-support/postgres";
import { openPostgres, type PgDb } from "../../../db/postgres/client";
import { auditSinkFor, flushAudit } from "../../services/audit";
import { AuditWriter } from "../../services/audit/writer";
import { startSession } from "../../services/auth/sessions";
import { saveDraft } from "../../services/drafts";
import { createSession } from "../../services/playground/sessions";
import { normalisePolicy } from "../../services/policy/normalise";
import { writeStoredPolicy } from "../../services/policy/store";
import { createSkill } from "../../services/skills/lifecycle";
import { skillsTestHome } from "../../services/skills/test-support/skills";
import { createToken } from "../../services/tokens";
import { createUser } from "../../services/users/users";
import { closeAllIndexes } from "../../services/catalog/catalog";
import { describeNeeding, postgresql } from "../../test-support/needs";
import { evalRuns } from "../../../db/schema";
import type { CliIO } from "../io";
import { tablesInCopyOrder } from "./db-copy-tables";
import { run } from "./db-copy";

type Home = ReturnType<typeof skillsTestHome>;

function capture(cwd: string): CliIO & { stdout: string; stderr: string } {
  const io = { stdout: "", stderr: "", env: {}, cwd } as CliIO & { stdout: string; stderr: string };
  io.out = (s) => void (io.stdout += s);
  io.err = (s) => void (io.stderr += s);
  return io;
}

/** A console's data home as the services leave it after some use. */
async function usedConsole(): Promise<Home> {
  const h = skillsTestHome();
  const audit = auditSinkFor(h.db, { stdout: false });
  const admin = await createUser(h.db, { email: "ada@x.io", role: "admin", password: "password1" });
  const author = await createUser(h.db, { email: "bo@x.io", role: "author", password: "password1" });
  await startSession(h.db, admin.id, "127.0.0.1");
  await createToken(h.db, { id: admin.id, role: "admin" }, { name: "ci", scopes: "catalog:read", expiresInDays: 30, forUserId: author.id }, { audit, actor: { id: admin.id } });
  const ctx = { ...h.ctx({ id: author.id, email: "bo@x.io", role: "author" }), audit };
  const { ref } = await createSkill(ctx, { layer: "project", name: "pdf-tools", description: "Works with PDF files. Use when a PDF is named.", template: "basic" });
  await saveDraft(ctx, { ref, path: "SKILL.md", text: "draft text", baseDigest: null });
  await createSession(h.db, h.dataHome, { id: author.id, role: "author" }, { title: "trying", provider: "offline" });
  await writeStoredPolicy(h.db, normalisePolicy({}), admin.id);
  h.db.insert(evalRuns).values({ skillKey: "k", skillName: "pdf-tools", layer: "project", skillDigest: "d", setDigest: "s", provider: "offline", model: "m", mode: "tool", runs: 1, threshold: 0.5, status: "done", cases: 0, results: "[]", f1: 0.75, userId: author.id, startedAt: 1 }).run();
  // Enough rows for several pages of the walk and signed checkpoints on the way.
  const w = new AuditWriter(h.db, { stdout: false, checkpointEveryRows: 500 });
  for (let i = 0; i < 2_600; i++) w.record({ type: "tool_call", actor: { id: author.id }, tool: "read_file", durationMs: i, details: { i, text: "é\u0000ok" } });
  // Script runs, whose exit status is a column of its own beside the hashed fields.
  for (const details of [{ exitCode: 0 }, { exitCode: 2 }, { exitCode: 137, timedOut: true }]) w.record({ type: "script_executed", actor: { id: author.id }, skill: "pdf-tools", details });
  w.close();
  flushAudit(h.db);
  return h;
}

describeNeeding(postgresql(), "omniforge db copy", () => {
  const postgres = useTestPostgres();
  let h: Home;
  const opened: PgDb[] = [];
  const open = (url: string) => {
    const db = openPostgres(url);
    opened.push(db);
    return db;
  };
  beforeAll(async () => {
    h = await usedConsole();
  }, 60_000);
  afterAll(async () => {
    for (const db of opened) await db.$client.end();
    await closeAllIndexes();
    h?.cleanup();
  });

  const count = (table: string) => h.db.$client.prepare(`SELECT count(*) FROM "${table}"`).pluck().get() as number;

  it("copies every table's rows, verifies the audit chain there and refuses a second copy into it", async () => {
    const url = await postgres.freshDatabase();
    const io = capture(h.dir);
    expect(await run(["--to", url, "--home", h.dir], io), io.stderr).toBe(0);
    const target = open(url);
    for (const { name } of tablesInCopyOrder()) {
      const { rows } = await target.$client.query<{ n: string }>(`SELECT count(*) AS n FROM "${name}"`);
      expect(Number(rows[0]!.n), name).toBe(count(name));
    }
    expect(count("audit_events")).toBeGreaterThan(2_600);
    for (const t of ["users", "auth_sessions", "access_tokens", "skill_versions", "editor_drafts", "playground_sessions", "policy_settings", "eval_runs"]) expect(count(t), t).toBeGreaterThan(0);
    expect(io.stdout).toMatch(new RegExp(`audit chain verified in .*: ${count("audit_events")} rows intact, head [0-9a-f]{16}…, [1-9]\\d* signed checkpoints matching`));
    // Values as the model reads them: booleans, epoch-ms dates, reals, an accented text.
    const [u] = await target.$client.query("SELECT disabled, created_at FROM users WHERE email = 'bo@x.io'").then((r) => r.rows);
    expect(u.disabled).toBe(false);
    expect(Number(u.created_at)).toBe(h.db.$client.prepare("SELECT created_at FROM users WHERE email = 'bo@x.io'").pluck().get());
    expect((await target.$client.query("SELECT f1 FROM eval_runs")).rows[0].f1).toBe(0.75);
    // The script runs' exit statuses, which the dashboard groups by, come along with the rows.
    const statuses = "SELECT exit_status FROM audit_events WHERE type = 'script_executed' ORDER BY id";
    expect((await target.$client.query(statuses)).rows.map((r) => r.exit_status)).toEqual(["exit 0", "exit 2", "timeout"]);
    // The identity goes on after the copied ids.
    const next = await target.$client.query("INSERT INTO audit_archives (first_id, last_id, count, head_hash, file, archived_at) VALUES (1,1,1,'h','f',1) RETURNING id");
    expect(Number(next.rows[0].id)).toBe(1);
    const nextVersion = await target.$client.query(
      "INSERT INTO skill_versions (layer, skill, path, action, author_id, author_email, created_at) VALUES ('project','x','','create','a','a@x.io',1) RETURNING id",
    );
    expect(Number(nextVersion.rows[0].id)).toBe((h.db.$client.prepare("SELECT max(id) FROM skill_versions").pluck().get() as number) + 1);
    await target.$client.query("DELETE FROM skill_versions WHERE id = $1", [nextVersion.rows[0].id]);
    await target.$client.query("DELETE FROM audit_archives");

    const again = capture(h.dir);
    expect(await run(["--to", url, "--home", h.dir], again)).toBe(1);
    expect(again.stderr.trim().split("\n")).toHaveLength(1);
    expect(again.stderr).toMatch(/is not empty \(rows in access_tokens, audit_events, auth_sessions.*\): copy into an empty database/);
    const { rows } = await target.$client.query<{ n: string }>("SELECT count(*) AS n FROM users");
    expect(Number(rows[0]!.n)).toBe(count("users"));
  }, 120_000);

  it("names a source chain that was tampered with, and keeps nothing of a failed verification quiet", async () => {
    const file = path.join(h.dir, "console.db.bak");
    fs.copyFileSync(path.join(h.dir, "console.db"), file);
    try {
      h.db.$client.prepare("UPDATE audit_events SET outcome = 'allowed' WHERE id = 1234").run();
      const io = capture(h.dir);
      expect(await run(["--to", await postgres.freshDatabase(), "--home", h.dir], io)).toBe(1);
      expect(io.stderr).toMatch(/the audit chain does not verify in .*: .*1234/);
    } finally {
      h.db.$client.prepare("UPDATE audit_events SET outcome = NULL WHERE id = 1234").run();
      fs.rmSync(file);
    }
  }, 60_000);

  it("says in one line when the target cannot be reached, without its password", async () => {
    const url = postgres.url.replace("postgres@", "postgres:s3cret-pw@").replace(/\/postgres$/, "/no_such_db");
    const io = capture(h.dir);
    expect(await run(["--to", url, "--home", h.dir], io)).toBe(1);
    expect(io.stderr).toMatch(/^omniforge db copy: cannot reach postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/no_such_db: .*no_such_db.*\n$/);
    expect(io.stderr + io.stdout).not.toContain("s3cret");
    const usage = capture(h.dir);
    expect(await run(["--to", "mysql://x", "--home", h.dir], usage)).toBe(2);
    // A generated password pasted as it is (deploy.md's team setup) was "cannot reach (not a URL): Invalid URL".
    const unencoded = capture(h.dir);
    expect(await run(["--to", postgres.url.replace("postgres@", "postgres:q7/Xk+9Lm2@vT@"), "--home", h.dir], unencoded)).toBe(2);
    expect(unencoded.stderr.split("\n")[0]).toBe(
      "omniforge db copy: --to must be a postgres:// URL, such as postgres://omniforge:PASSWORD@db.internal:5432/omniforge, with @ : / ? # % percent-encoded in the user name and password (encodeURIComponent; / is %2F, @ is %40)",
    );
    expect(unencoded.stderr).not.toContain("Xk+9");
    expect(await run(["--home", h.dir], capture(h.dir))).toBe(2);
  });
});
