// One matrix of policy cases, shared by every way an agent gets its skills: the console's list and the CLI
// (server/cli/policy-matrix.test.ts), and the catalog API that `omniforge sync` reads
// (server/http/catalog-matrix.test.ts). Each case: changes an admin makes, then the state of every definition.
import fs from "node:fs";
import path from "node:path";
import type { TPolicyChange } from "../api/routers/policy/policy.schema";
import { skillMd, writeSkillOnDisk } from "../services/skills/test-support/skills";

export type MatrixState = "active" | "shadowed" | "blocked" | "disabled" | "pending-approval" | "out-of-scope" | "invalid";
export interface MatrixCase {
  title: string;
  changes: TPolicyChange[];
  /** The admin's scope defaults (config.yaml `defaults` in the data home), for a caller that names none. */
  defaults?: { environment?: string; agent?: string; tenant?: string };
  /** "<name>@<layer>" -> state. */
  expect: Record<string, MatrixState>;
}

export const MATRIX: MatrixCase[] = [
  { title: "no policy", changes: [], expect: { "pdf-tools@enterprise": "active", "pdf-tools@project": "shadowed", "csv-insights@project": "active", "deploy-helper@project": "active" } },
  { title: "a blocked name", changes: [{ op: "block", name: "csv-insights" }], expect: { "csv-insights@project": "blocked", "pdf-tools@enterprise": "active" } },
  { title: "the enterprise definition disabled: the project one wins", changes: [{ op: "disable", name: "pdf-tools", layer: "enterprise" }], expect: { "pdf-tools@enterprise": "disabled", "pdf-tools@project": "active" } },
  { title: "an allowlist", changes: [{ op: "setAllowlist", names: ["pdf-tools"] }], expect: { "pdf-tools@enterprise": "active", "csv-insights@project": "blocked", "deploy-helper@project": "blocked" } },
  { title: "a forbidden name pattern", changes: [{ op: "setForbiddenPatterns", patterns: ["/^deploy-/"] }], expect: { "deploy-helper@project": "blocked", "csv-insights@project": "active" } },
  // Scope without context (#14 §4): a skill scoped to prod is active only where the context says prod; a caller
  // naming no environment gets the admin's default, and without one nothing matches.
  { title: "a scoped skill and a caller naming no environment", changes: [], expect: { "release-notes@project": "out-of-scope", "csv-insights@project": "active" } },
  { title: "the admin's default environment", changes: [], defaults: { environment: "prod" }, expect: { "release-notes@project": "active" } },
  { title: "a default environment outside the scope", changes: [], defaults: { environment: "dev" }, expect: { "release-notes@project": "out-of-scope" } },
  // A name that differs from its folder loads with a warning (as the reference and Claude Code do) unless the
  // policy makes the mismatch an error (seed 003's rule).
  { title: "a name that differs from its folder, no rule", changes: [], expect: { "legacy-name@project": "active" } },
  { title: "the policy requires names to match folders", changes: [{ op: "setNameMustMatchFolder", on: true }], expect: { "legacy-name@project": "invalid", "csv-insights@project": "active" } },
  { title: "approval required for scripts", changes: [{ op: "setRequireApproval", scripts: true }], expect: { "deploy-helper@project": "pending-approval", "csv-insights@project": "active" } },
];

/** The matrix's skills: pdf-tools in enterprise and project, csv-insights, deploy-helper (with a script) and
 * release-notes (scoped to environments [prod]) and legacy-name (in a folder named legacy-folder) in project. */
export function writeMatrixSkills(dataHome: { home: string; projectRoot: string }): void {
  const project = path.join(dataHome.projectRoot, ".omniforge", "skills");
  writeSkillOnDisk(path.join(dataHome.home, "enterprise", "skills", "pdf-tools"), { "SKILL.md": skillMd("pdf-tools") });
  writeSkillOnDisk(path.join(project, "pdf-tools"), { "SKILL.md": skillMd("pdf-tools") });
  writeSkillOnDisk(path.join(project, "csv-insights"), { "SKILL.md": skillMd("csv-insights") });
  writeSkillOnDisk(path.join(project, "deploy-helper"), { "SKILL.md": skillMd("deploy-helper"), "scripts/run.sh": "echo deploy\n" });
  writeSkillOnDisk(path.join(project, "legacy-folder"), { "SKILL.md": skillMd("legacy-name") });
  writeSkillOnDisk(path.join(project, "release-notes"), { "SKILL.md": skillMd("release-notes", undefined, "scope:\n  environments: [prod]\n") });
}

/** Back to no policy, then the case's changes, as an admin makes them in the console. */
export async function applyCase(policy: { change(c: TPolicyChange): Promise<unknown> }, c: MatrixCase, home: string): Promise<void> {
  const config = path.join(home, "config.yaml");
  if (c.defaults) fs.writeFileSync(config, `defaults:\n${Object.entries(c.defaults).map(([k, v]) => `  ${k}: ${v}\n`).join("")}`);
  else fs.rmSync(config, { force: true });
  await policy.change({ op: "setAllowlist", names: null });
  await policy.change({ op: "setForbiddenPatterns", patterns: [] });
  await policy.change({ op: "setRequireApproval", scripts: false, project: false });
  await policy.change({ op: "setNameMustMatchFolder", on: false });
  for (const n of ["pdf-tools", "csv-insights", "deploy-helper"]) await policy.change({ op: "unblock", name: n });
  await policy.change({ op: "enable", name: "pdf-tools", layer: "enterprise" });
  for (const change of c.changes) await policy.change(change);
}
