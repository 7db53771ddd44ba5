// The console's database as a hostile or unlucky data home holds it, through the real bin in a private HOME: empty,
// damaged, a named pipe, readable but not writable. Each is one line naming the file and what to do, never a stack
// trace or a hang, and a read (`policy list`) never writes: no schema made, no WAL files, modes kept private.
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDb, type TempDb } from "../test-support/temp-db";
import { describeNeeding, root } from "../test-support/needs";
import { createUser } from "../services/users/users";
import { MemoryAuditSink } from "../runtime/audit/events";
import { changePolicy } from "../services/governance/policy-change";
import { effectivePolicy } from "../services/policy/store";
import { readConsole } from "./console-db";

const repo = path.resolve(import.meta.dirname, "../..");
let base: string;
let real: TempDb;

beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-consoledb-"));
  fs.chmodSync(base, 0o755);
  real = tempDb();
  await createUser(real.db, { email: "ana@x.io", role: "admin", password: "password1" });
});
afterAll(() => {
  real.cleanup();
  fs.rmSync(base, { recursive: true, force: true });
});

function omniforge(args: string[], opts: { home: string; as?: SpawnSyncOptions; node?: string }) {
  const r = spawnSync(opts.node ?? process.execPath, [path.join(repo, "bin/omniforge.mjs"), ...args, "--home", opts.home], {
    cwd: base,
    encoding: "utf8",
    env: { ...process.env, HOME: base, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "", OMNIFORGE_CACHE_DIR: "off" },
    timeout: 20_000,
    ...opts.as,
  });
  return { code: r.status, out: String(r.stdout), err: String(r.stderr), signal: r.signal };
}

/** A data home folder of its own, with `make` putting a console.db in it. */
function home(name: string, make: (file: string) => void): string {
  const dir = path.join(base, name);
  fs.mkdirSync(dir, { mode: 0o755 });
  make(path.join(dir, "console.db"));
  return dir;
}

const TOKEN = ["token", "create", "--email", "ana@x.io", "--scope", "catalog:read"];

describe("a console.db the commands cannot use", () => {
  it("empty: it holds no console data, and no command makes it one (no schema, no WAL files)", () => {
    const h = home("empty", (f) => fs.writeFileSync(f, "", { mode: 0o644 }));
    for (const args of [["policy", "list"], ["policy", "block", "x"], TOKEN]) {
      const r = omniforge(args, { home: h });
      expect([r.code, r.err]).toEqual([1, `omniforge ${args.slice(0, 2).join(" ")}: ${h}/console.db: holds no console data (an empty or foreign database): start the console once with this data home\n`]);
    }
    expect(fs.readdirSync(h)).toEqual(["console.db"]);
    expect(fs.statSync(path.join(h, "console.db")).size).toBe(0);
  });

  it("another program's SQLite file: refused, not given the console's tables", () => {
    const h = home("foreign", (f) => {
      const other = new Database(f);
      other.exec("CREATE TABLE notes (body TEXT)");
      other.close();
    });
    expect(omniforge(["policy", "block", "x"], { home: h }).err).toMatch(/holds no console data \(an empty or foreign database\)/);
    const check = new Database(path.join(h, "console.db"), { readonly: true });
    expect(check.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([{ name: "notes" }]);
    check.close();
  });

  it("damaged: every command says it is not a usable database, in one line", () => {
    const h = home("damaged", (f) => fs.writeFileSync(f, Buffer.alloc(8192, 7)));
    for (const args of [["policy", "list"], ["policy", "block", "x"], ["policy", "export", "-"], TOKEN]) {
      const r = omniforge(args, { home: h });
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.err).toMatch(new RegExp(`^omniforge ${args.slice(0, 2).join(" ")}: ${h}/console.db: not a usable database \\(file is not a database\\): restore it from a backup.*\n$`));
    }
    const list = omniforge(["skill", "list"], { home: h });
    expect(list.err).toMatch(/^omniforge skill list: cannot read the console policy from \S+: not a usable database \(file is not a database\)/);
  });

  it("a named pipe: refused at once by every command that reads or writes it, never waited on", () => {
    const h = home("fifo", (f) => spawnSync("mkfifo", [f]));
    for (const args of [["policy", "list"], ["policy", "block", "x"], TOKEN, ["skill", "list"], ["agent", "run", "hi"]]) {
      const r = omniforge(args, { home: h });
      expect(r.signal, args.join(" ")).toBeNull(); // not killed by the timeout
      expect(r.code).toBeGreaterThan(0);
      expect(r.err).toMatch(/console\.db: it is a named pipe, not a database file\n$/);
      expect(r.err.split("\n")).toHaveLength(2);
    }
  });

  it("a write tightens a console.db left readable by others before SQLite copies its mode to the WAL files", () => {
    real.db.$client.pragma("wal_checkpoint(TRUNCATE)"); // the copy is then whole without the WAL
    const h = home("loose", (f) => fs.copyFileSync(real.file, f));
    fs.chmodSync(path.join(h, "console.db"), 0o644);
    expect(omniforge(["policy", "block", "old-tool"], { home: h })).toMatchObject({ code: 0, out: "old-tool: blocked\n" });
    const files = fs.readdirSync(h).filter((n) => n.startsWith("console.db"));
    expect(files.length).toBeGreaterThan(0);
    for (const n of files) expect([n, fs.statSync(path.join(h, n)).mode & 0o777]).toEqual([n, 0o600]);
    expect(omniforge(["policy", "list"], { home: h }).out).toContain("blocked names: old-tool\n");
  });
});

describeNeeding(root(), "a console.db this user may read but not write", () => {
  let node: string;
  const nobody = { uid: 65534, gid: 65534 };
  let ro: string;
  beforeAll(() => {
    // The node of the tests may sit under a folder only root can enter (/root/...): nobody runs a copy.
    const bin = path.join(base, "node-bin");
    fs.mkdirSync(bin, { mode: 0o755 });
    node = path.join(bin, "node");
    fs.copyFileSync(process.execPath, node);
    fs.chmodSync(node, 0o755);
    expect(omniforge(["policy", "block", "seed"], { home: real.dir })).toMatchObject({ code: 0 });
    // A copy of a running console's home (the WAL files are there: the test holds the database open).
    ro = path.join(base, "ro-home");
    fs.mkdirSync(ro, { mode: 0o755 });
    for (const n of fs.readdirSync(real.dir).filter((x) => x.startsWith("console.db"))) {
      fs.copyFileSync(path.join(real.dir, n), path.join(ro, n));
      fs.chmodSync(path.join(ro, n), 0o644);
    }
  });

  it("reads work (policy list, export, skill list); writes say to run as the console's user", () => {
    const as = { as: nobody, node };
    expect(omniforge(["policy", "list"], { home: ro, ...as })).toMatchObject({ code: 0, err: "" });
    expect(omniforge(["policy", "list"], { home: ro, ...as }).out).toContain("blocked names: seed\n");
    expect(omniforge(["policy", "export", "-"], { home: ro, ...as }).out).toContain("blockedNames:\n  - seed\n");
    expect(omniforge(["skill", "list"], { home: ro, ...as }).code).toBe(0);
    for (const args of [["policy", "block", "x"], TOKEN]) {
      const r = omniforge(args, { home: ro, ...as });
      expect([r.code, r.err]).toEqual([1, `omniforge ${args.slice(0, 2).join(" ")}: ${ro}/console.db: this user may not change it: run the command as the user the console runs as\n`]);
    }
  });

  it("without its -shm file in a folder nobody may write, a read says why it cannot open it", () => {
    const bare = path.join(base, "ro-bare");
    fs.mkdirSync(bare, { mode: 0o755 });
    fs.copyFileSync(path.join(ro, "console.db"), path.join(bare, "console.db"));
    fs.chmodSync(path.join(bare, "console.db"), 0o644);
    const r = omniforge(["policy", "list"], { home: bare, as: nobody, node });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^omniforge policy list: \S+console\.db: cannot be read by this user: SQLite must create its -shm file beside it/);
  });
});

describe("readConsole (the skill commands' view of the console's policy)", () => {
  const policyOf = (home: string) => readConsole(home, {}, (db) => effectivePolicy(db));

  it("is null without a console, and the stored policy with approvals, named by its file, when there is one", async () => {
    const empty = path.join(base, "no-console");
    fs.mkdirSync(empty);
    expect(await policyOf(empty)).toBeNull();
    const t = tempDb();
    try {
      await changePolicy(t.db, { op: "block", name: "git-helper" }, { audit: new MemoryAuditSink(), actor: { id: "a" } });
      await changePolicy(t.db, { op: "setRequireApproval", scripts: true }, { audit: new MemoryAuditSink(), actor: { id: "a" } });
      expect(await policyOf(t.dir)).toEqual({ value: expect.objectContaining({ blockedNames: ["git-helper"], requireApprovalForScripts: true, approvedDigests: {} }), where: t.file });
    } finally {
      await t.cleanup();
    }
  });

  it("a file that is not a database is one line naming it", async () => {
    const h = home("text", (f) => fs.writeFileSync(f, "not sqlite at all, just text".repeat(10)));
    await expect(policyOf(h)).rejects.toThrow(`cannot read the console policy from ${h}/console.db: not a usable database (file is not a database)`);
  });
});
