// One matrix of policy cases, shared by every way an agent gets its skills: the console's list and the CLI
// (server/cli/policy-matrix.test.ts), and the catalog API that `omniforge sync` reads
// (server/http/catalog-matrix.test.ts). Each case: changes an admin makes, then the state of every definition.
import path from "node:path";
import type { TPolicyChange } from "../api/routers/policy/policy.schema";
import { skillMd, writeSkillOnDisk } from "../services/skills/test-support";

export type MatrixState = "active" | "shadowed" | "blocked" | "disabled" | "pending-approval" | "out-of-scope";
export interface MatrixCase {
  title: string;
  changes: TPolicyChange[];
  /** "<name>@<layer>" -> state. */
  expect: Record<string, MatrixState>;
}

export const MATRIX: MatrixCase[] = [
  { title: "no policy", changes: [], expect: { "pdf-tools@enterprise": "active", "pdf-tools@project": "shadowed", "csv-insights@project": "active", "deploy-helper@project": "active" } },
  { title: "a blocked name", changes: [{ op: "block", name: "csv-insights" }], expect: { "csv-insights@project": "blocked", "pdf-tools@enterprise": "active" } },
  { title: "the enterprise definition disabled: the project one wins", changes: [{ op: "disable", name: "pdf-tools", layer: "enterprise" }], expect: { "pdf-tools@enterprise": "disabled", "pdf-tools@project": "active" } },
  { title: "an allowlist", changes: [{ op: "setAllowlist", names: ["pdf-tools"] }], expect: { "pdf-tools@enterprise": "active", "csv-insights@project": "blocked", "deploy-helper@project": "blocked" } },
  { title: "a forbidden name pattern", changes: [{ op: "setForbiddenPatterns", patterns: ["/^deploy-/"] }], expect: { "deploy-helper@project": "blocked", "csv-insights@project": "active" } },
  { title: "approval required for scripts", changes: [{ op: "setRequireApproval", scripts: true }], expect: { "deploy-helper@project": "pending-approval", "csv-insights@project": "active" } },
];

/** The matrix's skills: pdf-tools in enterprise and project, csv-insights and deploy-helper (with a script) in project. */
export function writeMatrixSkills(dh: { home: string; projectRoot: string }): void {
  const project = path.join(dh.projectRoot, ".omniforge", "skills");
  writeSkillOnDisk(path.join(dh.home, "enterprise", "skills", "pdf-tools"), { "SKILL.md": skillMd("pdf-tools") });
  writeSkillOnDisk(path.join(project, "pdf-tools"), { "SKILL.md": skillMd("pdf-tools") });
  writeSkillOnDisk(path.join(project, "csv-insights"), { "SKILL.md": skillMd("csv-insights") });
  writeSkillOnDisk(path.join(project, "deploy-helper"), { "SKILL.md": skillMd("deploy-helper"), "scripts/run.sh": "echo deploy\n" });
}

/** Back to no policy, then the case's changes, as an admin makes them in the console. */
export async function applyCase(policy: { change(c: TPolicyChange): Promise<unknown> }, c: MatrixCase): Promise<void> {
  await policy.change({ op: "setAllowlist", names: null });
  await policy.change({ op: "setForbiddenPatterns", patterns: [] });
  await policy.change({ op: "setRequireApproval", scripts: false, project: false });
  for (const n of ["pdf-tools", "csv-insights", "deploy-helper"]) await policy.change({ op: "unblock", name: n });
  await policy.change({ op: "enable", name: "pdf-tools", layer: "enterprise" });
  for (const change of c.changes) await policy.change(change);
}
