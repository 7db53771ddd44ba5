// The doctor in the console: one skill's findings (the editor's markers) and the catalog report (the /doctor
// page). Rights are the skills' rights: a skill is doctored only when the actor may read it, and the report
// covers the active definitions the actor's catalog resolves to. A report is audited with what it silenced.
import path from "node:path";
import { CHECKS, type DoctorSeverity, type Finding, type Overlap } from "../../runtime/doctor";
import { layerRivals, type SkillEntry, type SkillIndex } from "../../runtime/registry";
import { viewerIndex } from "../governance/context";
import { effectivePolicy } from "../policy/store";
import type { SkillRef, SkillsContext } from "../skills";
import { offload } from "../offload/pool";
import { existingSkillDir } from "../skills/edit";
import { keptCatalogReport } from "./kept-report";
import { readDoctorPolicy } from "./policy";
import { entriesByKey, skillRows } from "../skills/list";

export type SeverityCounts = Record<DoctorSeverity, number>;

export interface SkillFindings {
  ref: SkillRef;
  name: string;
  findings: Finding[];
  counts: SeverityCounts;
  silenced: number;
}

export { assertApprovable, readDoctorPolicy, setDoctorPolicy, type DoctorPolicy } from "./policy";

function countsOf(findings: Finding[]): { counts: SeverityCounts; silenced: number } {
  const counts: SeverityCounts = { high: 0, medium: 0, low: 0 };
  let silenced = 0;
  for (const f of findings) f.silenced ? silenced++ : counts[f.severity]++;
  return { counts, silenced };
}

/**
 * What each definition's priority can be compared with: the registry's count of same-name rivals in its layer, by
 * folder, counted here (the index lives in this process) for the doctor that runs in the offload worker.
 */
export function rivalsIn(index: SkillIndex, dirs: string[]): Record<string, number> {
  const byDir = new Map(index.entries().map((e) => [path.resolve(e.dir), e]));
  const out: Record<string, number> = {};
  for (const dir of dirs) {
    const e = byDir.get(path.resolve(dir));
    const n = e ? layerRivals(index, e.dir, e.name) : undefined;
    if (n !== undefined) out[path.resolve(dir)] = n;
  }
  return out;
}

/** One skill's findings (no overlaps: those need the catalog report). */
export async function skillFindings(ctx: SkillsContext, input: SkillRef): Promise<SkillFindings> {
  const { ref, dir } = existingSkillDir(ctx, input, "read");
  const index = await viewerIndex(ctx.db, ctx.dataHome, ctx.actor);
  const r = await offload("doctorSkill", dir, { ignore: (await readDoctorPolicy(ctx.db)).ignore, rivals: rivalsIn(index, [dir]) });
  return { ref, name: r.name, findings: r.findings, ...countsOf(r.findings) };
}

export interface DoctorReportView {
  skills: SkillFindings[];
  byCheck: { code: string; severity: DoctorSeverity; explanation: string; fix: string; count: number; silenced: number }[];
  bySeverity: SeverityCounts;
  silenced: number;
  overlaps: (Omit<Overlap, "a" | "b"> & { a: SkillRef; b: SkillRef })[];
  /** Definitions agents do not get (shadowed, blocked, disabled, out of scope), left out of the checks: listed with why. */
  skipped: { ref: SkillRef; name: string; status: string; reason: string }[];
}

const RANK: Record<DoctorSeverity, number> = { high: 0, medium: 1, low: 2 };
/** Worst first: more high findings, then medium, then low; then by name. */
const worse = (a: SkillFindings, b: SkillFindings) =>
  b.counts.high - a.counts.high || b.counts.medium - a.counts.medium || b.counts.low - a.counts.low || a.name.localeCompare(b.name);

/** The catalog report: every active definition the actor's catalog resolves to, and every one that does not load, doctored together. */
export async function catalogReport(ctx: SkillsContext): Promise<DoctorReportView> {
  const index = await viewerIndex(ctx.db, ctx.dataHome, ctx.actor);
  const all = skillRows(index, await effectivePolicy(ctx.db), new Map(), ctx.actor.id);
  const entries = entriesByKey(index, all); // pairs rows with entries by position: give it every row
  // What agents get, and what does not load at all (a high skill.not-loadable finding, as for a folder given by path).
  const rows = all.filter((r) => r.status === "active" || r.status === "pending-approval" || r.status === "invalid");
  const refByDir = new Map<string, SkillRef>();
  const doctored: SkillEntry[] = [];
  for (const r of rows) {
    const e = entries.get(r.key);
    if (e && !refByDir.has(e.dir)) doctored.push(e);
    if (e) refByDir.set(e.dir, r.ref);
  }
  const dirs = [...refByDir.keys()];
  // Every script of the catalog is read: seconds for a large one, so in the offload worker, and once per state of
  // the catalog (kept-report.ts); what this person may see was chosen above and is mapped back below, per call.
  const { report, computed } = await keptCatalogReport(doctored, { ignore: (await readDoctorPolicy(ctx.db)).ignore, rivals: rivalsIn(index, dirs) });
  const skills = report.skills.map((s) => ({ ref: refByDir.get(s.dir)!, name: s.name, findings: s.findings, ...countsOf(s.findings) })).sort(worse);
  const byCode = new Map<string, { count: number; silenced: number }>();
  for (const s of skills) {
    for (const f of s.findings) {
      const c = byCode.get(f.code) ?? { count: 0, silenced: 0 };
      if (f.silenced) c.silenced++;
      else c.count++;
      byCode.set(f.code, c);
    }
  }
  const byCheck = [...byCode]
    .map(([code, c]) => {
      const doc = CHECKS[code as keyof typeof CHECKS];
      return { code, severity: doc.severity, explanation: doc.explanation, fix: doc.fix, ...c };
    })
    .sort((a, b) => RANK[a.severity] - RANK[b.severity] || b.count - a.count || a.code.localeCompare(b.code));
  const total = countsOf(skills.flatMap((s) => s.findings));
  const silencedCodes = [...new Set(skills.flatMap((s) => s.findings.filter((f) => f.silenced).map((f) => `${s.name}:${f.code}:${f.silenced}`)))];
  ctx.audit.record({
    type: "doctor_report",
    actor: { id: ctx.actor.id, email: ctx.actor.email },
    outcome: "ok",
    details: { skills: skills.length, ...total.counts, silenced: total.silenced, silencedFindings: silencedCodes.slice(0, 200), overlaps: report.overlaps.length, computed },
  });
  return {
    skills,
    byCheck,
    bySeverity: total.counts,
    silenced: total.silenced,
    overlaps: report.overlaps.map((o) => ({ ...o, a: refByDir.get(o.a)!, b: refByDir.get(o.b)! })),
    skipped: all.filter((r) => !rows.includes(r)).map((r) => ({ ref: r.ref, name: r.name, status: r.status, reason: r.statusReason })),
  };
}
