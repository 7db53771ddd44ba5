import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeDb, openDb } from "../db/client";
import { ensureDataHome, readOrCreateSecret, resolveDataHome } from "./config";

const mode = (p: string) => fs.statSync(p).mode & 0o777;

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-home-test-"));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("where the data home is", () => {
  // env.ts reads an empty variable as unset; read as a path, "" made the clone itself the data home.
  it("an empty OMNIFORGE_HOME or OMNIFORGE_PROJECT_ROOT is the default, not the current folder", () => {
    const dataHome = resolveDataHome({ OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "" });
    expect(dataHome.home).toBe(path.resolve(".omniforge-data"));
    expect(dataHome.projectRoot).toBe(path.resolve(".omniforge-data", "demo-project"));
  });
});

describe("the data home is private", () => {
  it("a new home is 0700 and its database, WAL and secrets are 0600, with nothing to report", () => {
    const dataHome = resolveDataHome({ OMNIFORGE_HOME: path.join(root, "home") });
    expect(ensureDataHome(dataHome)).toEqual([]);
    readOrCreateSecret(dataHome, "nextauth-secret", () => "s3cret-value-long-enough");
    openDb(dataHome.dbFile);
    try {
      expect(mode(dataHome.home)).toBe(0o700);
      expect(mode(dataHome.secretsDir)).toBe(0o700);
      expect(mode(dataHome.archiveDir)).toBe(0o700);
      expect(mode(path.join(dataHome.secretsDir, "nextauth-secret"))).toBe(0o600);
      expect(mode(dataHome.dbFile)).toBe(0o600);
      expect(mode(`${dataHome.dbFile}-wal`)).toBe(0o600);
      expect(ensureDataHome(dataHome)).toEqual([]);
    } finally {
      closeDb(dataHome.dbFile);
    }
  });

  it("an existing home left readable by others is tightened at start, and each fix is reported", () => {
    const home = path.join(root, "old");
    fs.mkdirSync(path.join(home, "secrets"), { recursive: true });
    fs.chmodSync(home, 0o755);
    fs.chmodSync(path.join(home, "secrets"), 0o755);
    fs.writeFileSync(path.join(home, "console.db"), "", { mode: 0o644 });
    fs.writeFileSync(path.join(home, "secrets", "nextauth-secret"), "x\n", { mode: 0o644 });
    // A link in the home must not make the console chmod whatever it points to.
    const outside = path.join(root, "outside.txt");
    fs.writeFileSync(outside, "not ours", { mode: 0o644 });
    fs.symlinkSync(outside, path.join(home, "secrets", "link"));

    const notes = ensureDataHome(resolveDataHome({ OMNIFORGE_HOME: home }));
    expect(notes).toEqual([". was 0755, now 0700", "console.db was 0644, now 0600", "secrets was 0755, now 0700", "secrets/nextauth-secret was 0644, now 0600"]);
    expect(mode(home)).toBe(0o700);
    expect(mode(path.join(home, "console.db"))).toBe(0o600);
    expect(mode(path.join(home, "secrets", "nextauth-secret"))).toBe(0o600);
    expect(mode(outside)).toBe(0o644);
  });
});

describe("a secret made by two servers starting at once on one data home (issue #38)", () => {
  it("the one that finds it made meanwhile takes that value instead of failing, and no file is left aside", () => {
    const dataHome = resolveDataHome({ OMNIFORGE_HOME: path.join(root, "home") });
    ensureDataHome(dataHome);
    const file = path.join(dataHome.secretsDir, "nextauth-secret");
    // The other server writes the file between this one's read (nothing there) and its own write.
    const [value, created] = readOrCreateSecret(dataHome, "nextauth-secret", () => {
      fs.writeFileSync(file, "the-other-servers-secret\n", { mode: 0o600 });
      return "this-servers-secret";
    });
    expect([value, created]).toEqual(["the-other-servers-secret", false]);
    expect(fs.readdirSync(dataHome.secretsDir)).toEqual(["nextauth-secret"]);
    expect(readOrCreateSecret(dataHome, "nextauth-secret", () => "never-made")).toEqual(["the-other-servers-secret", false]);
  });
});
