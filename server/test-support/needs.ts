// Suites that need something of the machine: bubblewrap, root, cgroups or the shared fixtures (README.md, "Tests
// and what they need"). Where it is missing the suite is skipped with the reason in its title, which `npm test`
// lists beside its count. Under CI (CI set) a missing need is a failure instead: CI installs what these suites
// need, as the start script does, so a skip there would hide a broken machine and an untested sandbox.
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "vitest";
import { testDatabaseIsPostgres } from "../../db/test-support/postgres-run";
import { detectCgroups } from "../runtime/sandbox/cgroup";
import { skipMark, type Need } from "./skip-mark";

export interface Requirement {
  need: Need;
  /** Why it is not met, or null when it is. */
  missing: string | null;
}

const repo = path.resolve(import.meta.dirname, "../..");

/** The shared fixtures folder: OMNIFORGE_SHARED_DIR, else `shared` beside the clone. */
export const sharedDir = process.env.OMNIFORGE_SHARED_DIR ?? path.resolve(repo, "..", "shared");

export const BWRAP = "/usr/bin/bwrap";
export const isRoot = process.getuid?.() === 0;

export const bubblewrap = (): Requirement => ({ need: "bubblewrap", missing: fs.existsSync(BWRAP) ? null : `${BWRAP} is missing (apt-get install bubblewrap)` });

export const root = (): Requirement => ({ need: "root", missing: isRoot ? null : "not running as root (the sandbox switches to its own uid)" });

/** cgroup v2 with the controllers the sandbox delegates; only root can create run cgroups. */
export function cgroups(): Requirement {
  if (!isRoot) return { need: "cgroups", missing: "not running as root, so no run cgroups can be made" };
  const found = detectCgroups();
  return { need: "cgroups", missing: "error" in found ? found.error : null };
}

/** A PostgreSQL server to start throw-away clusters with (scripts/postgres.ts installs it where we are root with apt-get). */
export function postgresql(): Requirement {
  const installable = isRoot && fs.existsSync("/usr/bin/apt-get");
  const found = fs.existsSync("/usr/lib/postgresql") && fs.readdirSync("/usr/lib/postgresql").some((v) => fs.existsSync(path.join("/usr/lib/postgresql", v, "bin", "initdb")));
  return { need: "postgresql", missing: found || installable ? null : "no /usr/lib/postgresql/<n>/bin/initdb (apt-get install postgresql)" };
}

export const NGINX = "/usr/sbin/nginx";

/** nginx, to run docs/deploy.md's proxy configuration (installed with apt-get where we are root, as PostgreSQL is). */
export function nginx(): Requirement {
  const installable = isRoot && fs.existsSync("/usr/bin/apt-get");
  return { need: "nginx", missing: fs.existsSync(NGINX) || installable ? null : `${NGINX} is missing (apt-get install nginx-light)` };
}

/** A file or folder of the shared fixtures (relative to sharedDir). */
export function sharedFixture(rel: string): Requirement {
  const p = path.join(sharedDir, rel);
  return { need: "shared fixtures", missing: fs.existsSync(p) ? null : `${p} is absent (set OMNIFORGE_SHARED_DIR)` };
}

const unmet = (needs: Requirement | Requirement[]) => [needs].flat().find((r) => r.missing !== null);
const underCi = () => !!process.env.CI && process.env.CI !== "0" && process.env.CI !== "false";
const ciFailure = (r: Requirement) => () => {
  throw new Error(`needs ${r.need}: ${r.missing}. Under CI this suite may not be skipped; install what it needs (scripts/system-deps.ts).`);
};

/** True when every need is met: for a guard inside a body that is collected either way. */
export const has = (needs: Requirement | Requirement[]): boolean => unmet(needs) === undefined;

/** describe() that runs only when every need is met. */
export function describeNeeding(needs: Requirement | Requirement[], title: string, body: () => void): void {
  const r = unmet(needs);
  if (!r) describe(title, body);
  else if (underCi()) describe(title, () => it(`has ${r.need}`, ciFailure(r)));
  else describe.skip(`${title} ${skipMark(r.need, r.missing!)}`, body);
}

/** it() that runs only when every need is met. */
export function itNeeding(needs: Requirement | Requirement[], title: string, fn: () => unknown, timeout?: number): void {
  const r = unmet(needs);
  if (!r) it(title, fn, timeout);
  else if (underCi()) it(title, ciFailure(r));
  else it.skip(`${title} ${skipMark(r.need, r.missing!)}`, fn);
}

/**
 * it() for what only SQLite has (a second connection to the database file, a write from an exit hook): on the
 * PostgreSQL part of `npm test` it is skipped with `why` in its title, which the summary prints. Not a missing need
 * of the machine, so CI skips it there too.
 */
export function itOnSqlite(title: string, why: string, fn: () => unknown, timeout?: number): void {
  if (testDatabaseIsPostgres()) it.skip(`${title} ${skipMark("SQLite", why)}`, fn);
  else it(title, fn, timeout);
}

/**
 * describe() for what only PostgreSQL has (the command line through DATABASE_URL): on the SQLite part of `npm test`
 * it is skipped with `why` in its title; the postgres part runs it.
 */
export function describeOnPostgres(title: string, why: string, body: () => void): void {
  if (testDatabaseIsPostgres()) describe(title, body);
  else describe.skip(`${title} ${skipMark("PostgreSQL", why)}`, body);
}
