// The shared conformance cases: every case must get its expected verdict under the spec rule set
// (valid == no error diagnostic). Cases live in the shared folder, never copied into the repo.
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { describeNeeding, has, sharedDir, sharedFixture } from "../../test-support/needs";
import { checkSkillDir } from "./index";

const base = path.join(sharedDir, "fixtures/conformance");
const fixtures = sharedFixture("fixtures/conformance/cases.json");
const exists = has(fixtures);

interface Case {
  id: string;
  dirName: string;
  expected: "valid" | "invalid";
  summary: string;
  path: string;
}
const cases: Case[] = exists ? (JSON.parse(fs.readFileSync(path.join(base, "cases.json"), "utf8")) as { cases: Case[] }).cases : [];

/** The case's skill folder as named on disk (some names are NFD on purpose, so list rather than join). */
function caseDir(c: Case): string {
  const parent = path.join(base, path.dirname(c.path));
  const entries = fs.readdirSync(parent, { withFileTypes: true }).filter((e) => e.isDirectory());
  return path.join(parent, entries.length === 1 ? entries[0]!.name : path.basename(c.path));
}

describeNeeding(fixtures, "conformance cases (spec rules)", () => {
  it("has cases", () => expect(cases.length).toBeGreaterThan(0));
  it.each(cases.map((c) => [c.id, c] as const))("%s", (_id, c) => {
    const check = checkSkillDir(caseDir(c), { rules: "spec" });
    const errors = check.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code}: ${d.message}`);
    expect({ verdict: check.valid ? "valid" : "invalid", errors }, c.summary).toMatchObject({ verdict: c.expected });
    for (const d of check.diagnostics) {
      expect(d.line).toBeGreaterThanOrEqual(1);
      expect(d.column).toBeGreaterThanOrEqual(1);
      expect(d.endLine * 1e6 + d.endColumn).toBeGreaterThanOrEqual(d.line * 1e6 + d.column);
    }
  });
});
