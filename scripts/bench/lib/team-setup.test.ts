// docs/deploy.md's team setup is run by the two-server bench through this folder's team-setup.ts: the page's step 1
// psql statements and step 3's settings must stay the ones the bench runs, or the page describes a setup no one ran.
// (Step 4's nginx file is run by scripts/deploy-nginx.test.ts, step 6's commands by server/cli/policy-database.test.ts.)
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SETTINGS } from "../../../env";
import { consoleDatabaseStatements, teamServerSettings } from "./team-setup";

const repo = path.resolve(import.meta.dirname, "..", "..", "..");
const page = fs.readFileSync(path.join(repo, "docs", "deploy.md"), "utf8");
const teamSetup = page.slice(page.indexOf("## A team setup, step by step"));

/** The first code block after a step's bold title. */
function stepBlock(step: string): string {
  const at = teamSetup.indexOf(`**${step}`);
  expect(at, `deploy.md's team setup has step "${step}"`).toBeGreaterThan(0);
  const block = /```\n([\s\S]*?)```/.exec(teamSetup.slice(at));
  return block![1]!;
}

describe("deploy.md's team setup is the one the two-server bench runs", () => {
  it("step 1 makes the role and the database with the bench's statements", () => {
    const statements = [...stepBlock("1. The database.").matchAll(/-c "([^"]+)"/g)].map((m) => m[1]);
    expect(statements).toEqual(consoleDatabaseStatements("..."));
  });

  it("step 3 sets what the bench sets on each server, each a setting of env.ts", () => {
    const block = stepBlock("3. The servers.");
    expect(block).toMatch(/^npm run build\n/);
    expect(block).toMatch(/npm start\n$/);
    const documented = Object.fromEntries([...block.matchAll(/^([A-Z_]+)=(\S+)/gm)].map((m) => [m[1]!, m[2]!]));
    const bench = teamServerSettings({ home: "/srv/omniforge-data", databaseUrl: "postgres://omniforge:pw@127.0.0.1:5432/omniforge", publicUrl: "http://127.0.0.1:8080" }, 3000);
    expect(Object.keys(documented).sort()).toEqual(Object.keys(bench).filter((k) => k !== "OMNIFORGE_LOGIN_LIMIT_PER_MINUTE").sort());
    for (const name of Object.keys(documented)) expect(SETTINGS, `${name} is read through env.ts`).toHaveProperty(name);
    // Addresses are the site's; these values are the setup's own.
    for (const name of ["OMNIFORGE_INDEX_POLL_SECONDS", "OMNIFORGE_DEMO", "PORT"]) expect(bench[name], name).toBe(documented[name]);
    // The login limit the bench sets is the default the page relies on.
    expect(SETTINGS.OMNIFORGE_LOGIN_LIMIT_PER_MINUTE.parse(undefined)).toBe(Number(bench.OMNIFORGE_LOGIN_LIMIT_PER_MINUTE));
  });
});
