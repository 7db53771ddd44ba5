// The skill doctor: checks that a skill is coherent (allowed-tools against what the body says), safe (its
// scripts), complete (its references) and distinguishable (its description, overlaps in a catalog). Pure
// runtime: no next, react or database. The editor, the CLI, the report page and policy call these two entries.
import path from "node:path";
import { Budget, DOCTOR_BUDGET_MS } from "./budget";
import { CHECKS, CHECK_CODES, finding, type CheckCode } from "./checks";
import { loadSkill, type SkillContext } from "./context";
import { checkDescription, findOverlaps, overlapFindings } from "./description";
import { checkPriority } from "./priority";
import { checkRefs } from "./refs";
import { checkScripts } from "./scripts";
import { checkTools } from "./tools";
import { DOCTOR_SEVERITIES, type CatalogReport, type DoctorOptions, type DoctorSeverity, type Finding, type SkillReport } from "./types";

export * from "./types";
export { CHECKS, type CheckCode } from "./checks";

/** The frontmatter key (under metadata) that silences codes for one skill: `metadata: { doctor-ignore: "tools.unused" }`. */
export const IGNORE_KEY = "doctor-ignore";

/** Codes or families ("scripts.*") as a matcher. */
function silencer(list: readonly string[]): (code: string) => boolean {
  const exact = new Set(list.filter((c) => !c.endsWith(".*")));
  const families = list.filter((c) => c.endsWith(".*")).map((c) => c.slice(0, -1));
  return (code) => exact.has(code) || families.some((f) => code.startsWith(f));
}

export function ignoredBySkill(ctx: SkillContext): string[] {
  const v = ctx.check.properties?.metadata?.[IGNORE_KEY];
  return typeof v === "string" ? v.split(/[\s,]+/).filter(Boolean) : [];
}

const SEVERITY_RANK: Record<DoctorSeverity, number> = { high: 0, medium: 1, low: 2 };

/** Marks silenced findings (kept, so they can be shown and audited) and orders them: severity, file, line. */
function finish(ctx: SkillContext, findings: Finding[], opts: DoctorOptions): Finding[] {
  const bySkill = silencer(ignoredBySkill(ctx));
  const byPolicy = silencer(opts.ignore ?? []);
  for (const f of findings) {
    if (bySkill(f.code)) f.silenced = "skill";
    else if (byPolicy(f.code)) f.silenced = "policy";
  }
  return findings.sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
}

function perSkill(ctx: SkillContext, opts: DoctorOptions): Finding[] {
  ctx.budget = new Budget(opts.budgetMs ?? DOCTOR_BUDGET_MS, opts.clock);
  const found = [...checkLoads(ctx), ...checkTools(ctx), ...checkScripts(ctx), ...checkRefs(ctx), ...checkDescription(ctx), ...checkPriority(ctx, opts.layerRivals?.(ctx))];
  const gaps = ctx.budget.gaps;
  if (gaps.length) found.push(finding("skill.not-fully-checked", `not fully checked: ${gaps.join("; ")}`, "SKILL.md", 1));
  return found;
}

/** A skill no agent can load is the first thing to say: the other checks read what is there and may find nothing. */
function checkLoads(ctx: SkillContext): Finding[] {
  if (ctx.check.loadable) return [];
  const first = ctx.check.diagnostics.find((d) => d.severity === "error");
  const why = first ? `${first.message} [${first.code}]` : "it has no frontmatter with a name and a description";
  return [finding("skill.not-loadable", `SKILL.md does not load: ${why}`, "SKILL.md", first?.line ?? 1)];
}

function report(ctx: SkillContext, findings: Finding[], opts: DoctorOptions): SkillReport {
  return { dir: ctx.dir, name: ctx.name, description: ctx.description, findings: finish(ctx, findings, opts) };
}

/** One skill folder's findings (no overlap check: that needs a catalog). */
export function doctorSkill(dir: string, opts: DoctorOptions = {}): SkillReport {
  const ctx = loadSkill(dir);
  return report(ctx, perSkill(ctx, opts), opts);
}

/** A catalog: every skill's findings plus the overlaps between them (each also a finding of both skills). */
export function doctorCatalog(entries: Iterable<string | { dir: string }>, opts: DoctorOptions = {}): CatalogReport {
  const seen = new Set<string>();
  const ctxs: SkillContext[] = [];
  for (const e of entries) {
    const dir = path.resolve(typeof e === "string" ? e : e.dir);
    if (seen.has(dir)) continue;
    seen.add(dir);
    ctxs.push(loadSkill(dir));
  }
  const overlaps = findOverlaps(ctxs);
  return { skills: ctxs.map((c) => report(c, [...perSkill(c, opts), ...overlapFindings(c, overlaps)], opts)), overlaps };
}

/** Unsilenced findings at or above a severity. */
export function atOrAbove(findings: readonly Finding[], severity: DoctorSeverity): Finding[] {
  return findings.filter((f) => !f.silenced && SEVERITY_RANK[f.severity] <= SEVERITY_RANK[severity]);
}

export const isDoctorSeverity = (s: string): s is DoctorSeverity => (DOCTOR_SEVERITIES as readonly string[]).includes(s);

/** Codes that are not in the table (a typo in a policy or a doctor-ignore list). */
export const unknownCodes = (list: readonly string[]): string[] =>
  list.filter((c) => !(c in CHECKS) && !(c.endsWith(".*") && CHECK_CODES.some((k: CheckCode) => k.startsWith(c.slice(0, -1)))));
