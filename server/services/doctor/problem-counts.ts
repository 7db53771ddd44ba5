// How many problems each skill of the list has and how bad the worst is (issue 41 item 1): the one problem list
// (problems.ts problemList, as the editor's panel shows it) of every definition the user's catalog holds, counted.
// The doctor's part runs in the offload worker and is kept per folder and content (digest of SKILL.md and of
// scripts/), so a list view re-examines only what changed since.
import type { Finding } from "../../runtime/doctor";
import type { Severity } from "../../runtime/skill/types";
import { indexFor } from "../catalog/catalog";
import { offload } from "../offload/pool";
import { effectivePolicy } from "../policy/store";
import type { SkillsContext } from "../skills";
import { listedRows } from "../skills/list";
import { rivalsIn } from "./index";
import { readDoctorPolicy } from "./policy";
import { problemList } from "./problems";

export interface ProblemCount {
  count: number;
  /** The worst severity among them (null: no problem). */
  worst: Severity | null;
}

export interface ProblemCounts {
  /** By the list's row key. */
  byKey: Record<string, ProblemCount>;
  /** Skill names with at least one error (a high doctor finding or a format error): the Overview's figure. */
  namesWithErrors: number;
}

const KEPT = 20_000;
const findingsKept = new Map<string, Finding[]>();

export async function problemCounts(ctx: SkillsContext): Promise<ProblemCounts> {
  const index = await indexFor(ctx.actor.id, ctx.dataHome);
  const rows = listedRows(index, await effectivePolicy(ctx.db), ctx.actor.id);
  const { ignore } = await readDoctorPolicy(ctx.db);
  const rivals = rivalsIn(
    index,
    rows.map((r) => r.entry.dir),
  );
  const keyOf = (e: (typeof rows)[number]["entry"]) => [e.dir, e.digest, e.scripts?.digest ?? "", ignore.join(","), rivals[e.dir] ?? ""].join("\0");
  const missing = rows.filter((r) => r.entry.digest && !findingsKept.has(keyOf(r.entry)));
  if (missing.length) {
    const reports = await offload("doctorSkills", missing.map((r) => r.entry.dir), { ignore, rivals });
    missing.forEach((r, i) => {
      if (findingsKept.size >= KEPT) findingsKept.delete(findingsKept.keys().next().value!);
      findingsKept.set(keyOf(r.entry), reports[i]!.findings);
    });
  }
  const byKey: Record<string, ProblemCount> = {};
  const withErrors = new Set<string>();
  for (const { row, entry } of rows) {
    const list = problemList(entry.diagnostics, findingsKept.get(keyOf(entry)) ?? []);
    const worst = list[0]?.severity ?? null;
    byKey[row.key] = { count: list.length, worst };
    if (worst === "error") withErrors.add(row.name);
  }
  return { byKey, namesWithErrors: withErrors.size };
}

/** The list's keys of the definitions with at least one error: the list filtered to them. */
export async function keysWithErrors(ctx: SkillsContext): Promise<Set<string>> {
  const { byKey } = await problemCounts(ctx);
  return new Set(Object.keys(byKey).filter((k) => byKey[k]!.worst === "error"));
}
