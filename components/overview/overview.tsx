"use client";
// The first page: the catalog by layer and status, what is broken or waiting, the last 24 hours, the busiest
// skills and the latest trigger tests; every figure links to the page where it is handled.
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useTRPC } from "~/components/providers/trpc";
import { editorHref } from "~/components/skills/links";
import { stateLabel } from "~/components/skills/skill-state";
import { definitionsNote } from "~/components/skills/catalog-size";
import { count, plural } from "~/server/domain/plural";
import { LAYER_LABEL } from "~/server/domain/vocabulary";
import { evalsHref } from "~/components/evals/view-tabs";
import type { AppRouter } from "~/server/api/root";
import { Section } from "~/components/shell/section";

type Overview = inferRouterOutputs<AppRouter>["overview"]["get"];

function Figure({ label, value, href, warn, note }: { label: string; value: number; href: string; warn?: boolean; note?: string }) {
  return (
    <Link href={href} className="card hover:border-indigo-400" data-testid={`figure-${label}`}>
      <div className={`text-2xl font-semibold ${warn && value > 0 ? "text-red-700 dark:text-red-300" : ""}`}>{value}</div>
      <div className="muted text-sm">
        {label}
        {note ? ` ${note}` : ""}
      </div>
    </Link>
  );
}

/** "Project 12 · Plugin 3": each count opens the skills list filtered to it. */
function CountLinks({ counts, label, href }: { counts: Record<string, number>; label: (key: string) => string; href: (key: string) => string }) {
  return (
    <p className="text-sm">
      {Object.entries(counts).map(([k, n], i) => (
        <span key={k}>
          {i > 0 && " · "}
          <Link className="text-indigo-700 hover:underline dark:text-indigo-300" href={href(k)}>
            {label(k)} {n}
          </Link>
        </span>
      ))}
    </p>
  );
}

export function OverviewDashboard() {
  const trpc = useTRPC();
  const q = useQuery(trpc.overview.get.queryOptions(undefined, { staleTime: 5000 }));
  // The skills whose one problem list holds an error; asked apart, since the doctor may take a moment on a big catalog.
  const problems = useQuery(trpc.doctor.problems.queryOptions(undefined, { staleTime: 30_000 }));
  if (q.error) return <p className="error-text">{q.error.message}</p>;
  if (!q.data) return <p className="muted text-sm">Loading the overview…</p>;
  const o: Overview = q.data;
  const d = o.last24h;
  // The exact window the server counted in (services/audit/refusals.ts), so each link opens the rows counted.
  const day = `/audit?from=${d.window.from}&to=${d.window.to}`;
  return (
    <div className="space-y-4" data-testid="overview">
      <div className="grid gap-3 sm:grid-cols-3 lg:grid-cols-7">
        {/* Skills as the skills page counts them: names, with their definitions when there are more. */}
        <Figure label={plural(o.names, "skill")} value={o.names} href="/skills" note={definitionsNote(o.names, o.total)} />
        <Figure label="active" value={o.byStatus.active ?? 0} href="/skills?status=active" />
        <Figure label="invalid" value={o.byStatus.invalid ?? 0} href="/skills?status=invalid" warn />
        {problems.data && <Figure label="with high-severity problems" value={problems.data.namesWithErrors} href="/skills?problems=error" warn />}
        {o.isAdmin && <Figure label="awaiting approval" value={o.pendingCount} href="/policies" warn />}
        {/* The audit page needs the author role: a viewer gets no tile that opens it. */}
        {o.mayOpenAudit && <Figure label="refusals (24 h)" value={d.refusals} href={`${day}&outcome=refused`} warn />}
        {o.mayOpenAudit && <Figure label="failed scripts (24 h)" value={d.scriptFailures} href={`${day}&type=script_executed&outcome=failed`} warn />}
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <Section label="By layer and status" title="Catalog">
          <CountLinks counts={o.byLayer} label={(l) => (LAYER_LABEL as Record<string, string>)[l] ?? l} href={(l) => `/skills?layer=${encodeURIComponent(l)}`} />
          <CountLinks counts={o.byStatus} label={stateLabel} href={(s) => `/skills?status=${encodeURIComponent(s)}`} />
          <p className="muted text-sm">
            Last 24 h: {d.activations} activations, {d.scriptRuns} script runs ({d.scriptFailures} failed), {count(d.refusals, "refusal")}
            {d.refusalsByKind.length > 0 && ` (${d.refusalsByKind.map((k) => `${k.n} ${plural(k.n, k.one, k.many)}`).join(", ")})`}.
          </p>
        </Section>
        <Section label="Invalid skills" title="Invalid skills">
          {o.invalid.length === 0 ? (
            <p className="muted text-sm">None: every skill loads.</p>
          ) : (
            <ul className="text-sm">
              {o.invalid.map((s) => (
                <li key={`${s.ref.layer}/${s.ref.skill}`}>
                  <Link className="text-indigo-700 hover:underline dark:text-indigo-300" href={editorHref(s.ref)}>
                    {s.name}
                  </Link>{" "}
                  <span className="muted">({s.ref.layer}) {s.reason}</span>
                </li>
              ))}
            </ul>
          )}
        </Section>
        {o.isAdmin && (
          <Section label="Awaiting approval" title="Awaiting approval">
            {o.pendingApprovals.length === 0 ? (
              <p className="muted text-sm">Nothing waits for a decision.</p>
            ) : (
              <ul className="text-sm">
                {o.pendingApprovals.map((p) => (
                  <li key={`${p.layer}/${p.skill}`}>
                    <Link className="text-indigo-700 hover:underline dark:text-indigo-300" href="/policies">
                      {p.skill}
                    </Link>{" "}
                    <span className="muted">({p.layer})</span>
                  </li>
                ))}
              </ul>
            )}
          </Section>
        )}
        <Section label="Busiest skills" title="Busiest skills (24 h)">
          {o.busiest.length === 0 ? (
            <p className="muted text-sm">No activations in the last 24 hours.</p>
          ) : (
            <ul className="text-sm">
              {o.busiest.map((b) => (
                <li key={b.skill}>
                  {o.mayOpenAudit ? (
                    <Link className="text-indigo-700 hover:underline dark:text-indigo-300" href={`${day}&type=skill_activated&skill=${encodeURIComponent(b.skill)}`}>
                      {b.skill}
                    </Link>
                  ) : (
                    b.skill
                  )}{" "}
                  <span className="muted">{b.n} activations</span>
                </li>
              ))}
            </ul>
          )}
        </Section>
        <Section label="Trigger tests" title="Trigger tests">
          {o.evals.length === 0 ? (
            <p className="muted text-sm">No trigger test has run yet: open a skill and its Evals tab.</p>
          ) : (
            <ul className="text-sm">
              {o.evals.map((e) => (
                <li key={e.runId}>
                  <Link className="text-indigo-700 hover:underline dark:text-indigo-300" href={evalsHref(e.ref)}>
                    {e.skillName}
                  </Link>{" "}
                  <span className="muted">
                    F1 {e.f1 === null ? "n/a" : `${Math.round(e.f1 * 100)}%`} · {e.passed}/{e.total} passed
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Section>
      </div>
    </div>
  );
}
