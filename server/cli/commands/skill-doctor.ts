// `omniforge skill doctor [<path>...]`: the skill doctor (server/runtime/doctor) over skill folders, folders of
// skills, or, with no path, the whole catalog this user has (same layers, resolution and console policy as
// `skill eval`). Overlaps are looked for among the skills doctored together. `--json` prints JSON Lines, one
// object per skill. Exit 1 when an unsilenced finding at or above --fail-on (default high) exists, 2 on usage
// errors: CI can gate a skill repository on it.
import fs from "node:fs";
import path from "node:path";
import { CONTEXT_FLAGS, parseCommand } from "../args";
import type { CliIO } from "../io";
import { catalogConfigFrom } from "./skill-list";
import { atOrAbove, CHECKS, DOCTOR_SEVERITIES, doctorCatalog, isDoctorSeverity, unknownCodes, type DoctorSeverity, type Finding, type SkillReport } from "../../runtime/doctor";
import { relativeInside } from "../../runtime/registry/layers";
import { layerRivals, resolveAll } from "../../runtime/registry/resolve";
import { SkillIndex } from "../../runtime/registry/skill-index";
import { findSkillDirs } from "../../runtime/skill/index";
import { readDoctorPolicy } from "../../services/doctor/policy";
import { readConsole } from "../console-db";
import { contextFor } from "../policy-source";
import { count } from "../../domain/plural";
import { printable } from "../printable";

export const summary = "Check skills for incoherent allowed-tools, unsafe scripts, broken references and weak or competing descriptions";

const USAGE = `usage: omniforge skill doctor [<path>...] [--json] [--fail-on high|medium|low] [--ignore CODE]...
  <path>     a skill folder, or a folder of skill folders (every SKILL.md below it); none: the whole catalog
             (the definitions agents get, by layers, resolution and the console's policy when it has a
             database, DATABASE_URL or <home>/console.db; and every definition that does not load)
  --fail-on  exit 1 when a finding at or above this severity is not silenced (default high)
  --ignore   silence a check (e.g. tools.unused, or a family: scripts.*) as a policy would; repeatable.
             A skill silences its own with metadata: { doctor-ignore: "code1 code2" }
  --skills   with no path: a folder of skill folders read as part of the project layer; repeatable
  --home, --project, --user, --environment (--env), --agent, --tenant: as for \`omniforge skill list\`
  --json     JSON Lines, one per skill: {"path","name","findings":[{"code","severity","message","file","line"}]}
             (a silenced finding also has "silenced": "skill" | "policy")
exit status: 0 nothing at or above --fail-on, 1 something is, 2 usage error
checks: ${Object.keys(CHECKS).join(", ")}`;

function jsonLine(r: SkillReport): string {
  const findings = r.findings.map((f) => ({ code: f.code, severity: f.severity, message: f.message, file: f.file, line: f.line, ...(f.silenced ? { silenced: f.silenced } : {}) }));
  return JSON.stringify({ path: r.dir, name: r.name, findings }) + "\n";
}

function textBlock(r: SkillReport, shown: string): string {
  if (!r.findings.length) return printable(`${shown} (${r.name}): no findings`) + "\n";
  const lines = [`${shown} (${r.name})`];
  for (const f of r.findings) {
    lines.push(`  ${f.severity.padEnd(6)} ${f.code.padEnd(26)} ${f.file}:${f.line}  ${f.message}${f.silenced ? `  [silenced by ${f.silenced}]` : ""}`);
    if (!f.silenced) {
      if (f.snippet && f.file !== "SKILL.md") lines.push(`         ${f.snippet}`);
      lines.push(`         fix: ${f.fix}`);
    }
  }
  // Names, paths, messages and snippets come from the skill's files: each line is written out inert.
  return lines.map(printable).join("\n") + "\n";
}

export async function run(args: string[], io: CliIO): Promise<number> {
  const cmd = parseCommand("skill doctor", USAGE, args, {
    ...CONTEXT_FLAGS,
    "fail-on": { type: "string" },
    ignore: { type: "string", multiple: true },
    skills: { type: "string", multiple: true },
  }, io);
  if (typeof cmd === "number") return cmd;
  const { values, positionals, fail } = cmd;
  const failOn = values["fail-on"] ?? "high";
  if (!isDoctorSeverity(failOn)) return fail(`--fail-on must be one of ${DOCTOR_SEVERITIES.join(", ")}, not "${failOn}"`);
  const ignore = (values.ignore ?? []).flatMap((v) => v.split(/[\s,]+/)).filter(Boolean);
  const unknown = unknownCodes(ignore);
  if (unknown.length) return fail(`unknown check ${unknown.map((c) => `"${c}"`).join(", ")}`);

  let dirs: string[] = [];
  let index: SkillIndex | undefined;
  if (positionals.length) {
    if (values.skills?.length) return fail("--skills reads the catalog; give paths or --skills, not both");
    for (const p of positionals) {
      const abs = path.resolve(io.cwd, p);
      const st = fs.statSync(abs, { throwIfNoEntry: false });
      if (!st?.isDirectory()) return fail(`${p}: not a folder`);
      const found = fs.existsSync(path.join(abs, "SKILL.md")) ? [abs] : findSkillDirs(abs);
      if (!found.length) return fail(`${p}: no SKILL.md in it or below it`);
      dirs.push(...found);
    }
  } else {
    try {
      const config = catalogConfigFrom(values, io);
      const { ctx } = await contextFor(config, values, io.cwd, io.env);
      // The console's silenced checks apply here too, beside --ignore.
      ignore.push(...((await readConsole(config.home, io.env, readDoctorPolicy))?.value.ignore ?? []));
      index = SkillIndex.build(config);
      // What agents get, and every definition that does not load: a high skill.not-loadable finding, as for a
      // folder given by path, so the whole catalog can gate CI on a broken SKILL.md too.
      dirs = [...resolveAll(index, ctx).skills, ...index.entries().filter((e) => !e.loadable)].map((e) => e.dir);
    } catch (e) {
      return fail(e as Error);
    }
  }

  // Only the catalog knows a definition's rivals in its layer (for priority.no-effect); loose folders do not.
  const catalog = index;
  const report = doctorCatalog(dirs, { ignore, ...(catalog ? { layerRivals: (s: { dir: string; name: string }) => layerRivals(catalog, s.dir, s.name) } : {}) });
  const counts: Record<DoctorSeverity, number> = { high: 0, medium: 0, low: 0 };
  let silenced = 0;
  let failing: Finding[] = [];
  for (const r of report.skills) {
    for (const f of r.findings) f.silenced ? silenced++ : counts[f.severity]++;
    failing = failing.concat(atOrAbove(r.findings, failOn));
    if (values.json) io.out(jsonLine(r));
    else {
      const rel = relativeInside(io.cwd, r.dir);
      io.out(textBlock(r, rel || r.dir));
    }
  }
  if (!values.json) {
    io.out(
      `${count(report.skills.length, "skill")}: ${counts.high} high, ${counts.medium} medium, ${counts.low} low` +
        (silenced ? `, ${silenced} silenced` : "") +
        (report.overlaps.length ? `; ${count(report.overlaps.length, "overlapping pair")}` : "") +
        ` · fail-on ${failOn}: ${failing.length ? "FAIL" : "ok"}\n`,
    );
  }
  return failing.length ? 1 : 0;
}
