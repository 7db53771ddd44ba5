"use client";
// The catalog's doctor report (issue 18): counts by severity and by check, the worst skills first with their
// findings (each linked to the file in the editor), the pairs of skills whose descriptions compete, and the
// definitions it did not examine because agents do not get them, each with why (issue 41 item 8).
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "~/components/providers/trpc";
import { editorHref } from "~/components/skills/links";
import { Section } from "~/components/shell/section";
import { count } from "~/server/domain/plural";
import { SEVERITY_STYLE, Severity } from "./severity";


export function DoctorReport() {
  const trpc = useTRPC();
  const report = useQuery({ ...trpc.doctor.report.queryOptions(), staleTime: 30_000 });
  const [open, setOpen] = useState<string | null>(null);
  if (report.isLoading) return <p className="text-sm text-slate-500">Examining every skill…</p>;
  if (report.error) return <p className="text-sm text-red-700">The report could not be made: {report.error.message}</p>;
  const r = report.data!;
  const total = r.bySeverity.high + r.bySeverity.medium + r.bySeverity.low;
  return (
    <div className="space-y-6" data-testid="doctor-report">
      <section className="flex flex-wrap gap-3" aria-label="Findings by severity">
        {(["high", "medium", "low"] as const).map((s) => (
          <div key={s} className="card min-w-32" data-testid={`doctor-count-${s}`}>
            <div className="text-2xl font-semibold">{r.bySeverity[s]}</div>
            <div className="text-xs text-slate-500">{s}</div>
          </div>
        ))}
        <div className="card min-w-32">
          <div className="text-2xl font-semibold">{r.silenced}</div>
          <div className="text-xs text-slate-500">silenced</div>
        </div>
        <div className="card min-w-32">
          <div className="text-2xl font-semibold">{r.skills.length}</div>
          <div className="text-xs text-slate-500">skills examined</div>
        </div>
      </section>

      <Section label="By check" title="By check">
        {r.byCheck.length === 0 ? (
          <p className="text-sm text-slate-500">No findings.</p>
        ) : (
          <table className="w-full text-sm">
            <thead className="text-left text-xs text-slate-500">
              <tr>
                <th className="py-1 pr-3">Check</th>
                <th className="px-3">Severity</th>
                <th className="px-3 text-right">Findings</th>
                <th className="px-3 text-right">Silenced</th>
                <th className="pl-4">Why it matters · how to fix</th>
              </tr>
            </thead>
            <tbody>
              {r.byCheck.map((c) => (
                <tr key={c.code} className="border-t border-slate-100 align-top dark:border-slate-800">
                  <td className="py-1 pr-3 font-mono text-xs whitespace-nowrap">{c.code}</td>
                  <td className="px-3">
                    <Severity s={c.severity} />
                  </td>
                  <td className="px-3 text-right">{c.count}</td>
                  <td className="px-3 text-right text-slate-500">{c.silenced}</td>
                  <td className="pl-4 text-xs text-slate-600 dark:text-slate-300">
                    {c.explanation} <span className="text-slate-500">Fix: {c.fix}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>

      <Section label="Skills, worst first" title="Skills, worst first">
        <ul className="divide-y divide-slate-100 dark:divide-slate-800">
          {r.skills.map((s) => {
            const key = `${s.ref.layer}/${s.ref.plugin ?? ""}/${s.ref.skill}`;
            const shown = open === key;
            return (
              <li key={key} className="py-2" data-testid="doctor-skill">
                <button className="flex w-full items-center gap-3 text-left" onClick={() => setOpen(shown ? null : key)} aria-expanded={shown}>
                  <span className="font-medium">{s.name}</span>
                  <span className="text-xs text-slate-500">{s.ref.layer}</span>
                  <span className="ml-auto flex gap-2 text-xs">
                    {s.counts.high > 0 && <span className={`rounded px-1.5 ${SEVERITY_STYLE.high}`}>{s.counts.high} high</span>}
                    {s.counts.medium > 0 && <span className={`rounded px-1.5 ${SEVERITY_STYLE.medium}`}>{s.counts.medium} medium</span>}
                    {s.counts.low > 0 && <span className={`rounded px-1.5 ${SEVERITY_STYLE.low}`}>{s.counts.low} low</span>}
                    {s.silenced > 0 && <span className="text-slate-500">{s.silenced} silenced</span>}
                    {s.findings.length === 0 && <span className="text-emerald-700">no findings</span>}
                  </span>
                </button>
                {shown && (
                  <ul className="mt-2 space-y-2 pl-4 text-sm">
                    {s.findings.map((f, i) => (
                      <li key={i} className={f.silenced ? "opacity-60" : ""}>
                        <div className="flex flex-wrap items-center gap-2">
                          <Severity s={f.severity} />
                          <span className="font-mono text-xs">{f.code}</span>
                          <Link className="font-mono text-xs text-indigo-700 hover:underline dark:text-indigo-300" href={editorHref(s.ref, f.file)}>
                            {f.file}:{f.line}
                          </Link>
                          {f.silenced && <span className="text-xs text-slate-500">silenced by {f.silenced}</span>}
                        </div>
                        <div>{f.message}</div>
                        {f.snippet && f.file !== "SKILL.md" && <pre className="mt-1 overflow-x-auto rounded bg-slate-50 p-1 text-xs dark:bg-slate-900">{f.snippet}</pre>}
                        <div className="text-xs text-slate-500">Fix: {f.fix}</div>
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            );
          })}
        </ul>
      </Section>

      <Section label="Overlapping skills" title="Overlapping descriptions">
        {r.overlaps.length === 0 ? (
          <p className="text-sm text-slate-500">No two skills compete for the same requests.</p>
        ) : (
          <ul className="space-y-3 text-sm">
            {r.overlaps.map((o) => (
              <li key={`${o.aName}~${o.bName}~${o.a.layer}~${o.b.layer}`} data-testid="doctor-overlap">
                <div className="font-medium">
                  <Link className="text-indigo-700 hover:underline dark:text-indigo-300" href={editorHref(o.a, "SKILL.md")}>
                    {o.aName}
                  </Link>{" "}
                  ~{" "}
                  <Link className="text-indigo-700 hover:underline dark:text-indigo-300" href={editorHref(o.b, "SKILL.md")}>
                    {o.bName}
                  </Link>
                </div>
                <div className="text-xs text-slate-600 dark:text-slate-300">Shared words: {o.sharedWords.join(", ") || "—"}</div>
                <div className="text-xs text-slate-500">{o.suggestion}</div>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section label="Skipped definitions" title={`Not examined: ${count(r.skipped.length, "definition")} agents do not get`}>
        {r.skipped.length === 0 ? (
          <p className="text-sm text-slate-500">Every definition was examined.</p>
        ) : (
          <ul className="space-y-1 text-sm" data-testid="doctor-skipped">
            {r.skipped.map((s) => (
              <li key={`${s.ref.layer}/${s.ref.plugin ?? ""}/${s.ref.base ?? ""}/${s.ref.skill}`} className="break-words">
                <Link className="text-indigo-700 hover:underline dark:text-indigo-300" href={editorHref(s.ref)}>
                  {s.name}
                </Link>{" "}
                <span className="muted">
                  ({s.ref.layer}, {s.status.replace("-", " ")}): {s.reason}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>
      {total === 0 && r.silenced === 0 && <p className="text-sm text-emerald-700">Every skill is in good health.</p>}
    </div>
  );
}
