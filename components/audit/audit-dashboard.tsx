"use client";
// The audit dashboard at /audit. Filters live in the URL (shareable); the time range is fixed to one "now"
// per view so the count, the charts, the table and the export all describe the same rows.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { useTRPC } from "~/components/providers/trpc";
import { count } from "~/server/domain/plural";
import { Options } from "~/components/shell/options";
import { AUDIT_EVENT_TYPES } from "~/server/runtime/audit/events";
import { auditRangeProblem, CONSOLE_SOURCE, PLAYGROUND_SOURCE } from "~/server/domain/audit-filter-keys";
import { BarList, ChartCard, TimeSeriesChart } from "./charts";
import { sourceLabel, sourceName } from "./event-format";
import { EventsTable } from "./events-table";
import { dateFieldValue, queryFilterToSearch, RANGES, readUrlFilter, toQueryFilter, unreadableDates, writeUrlFilter, type UrlFilter } from "./url-filter";
import { VerifyButton } from "./verify-button";
import { ViolationsTable } from "./violations-table";
import { RetentionLine } from "./retention-line";

const OUTCOMES = ["allowed", "refused", "failed", "ok"];

/** The source filter's choices: the console and its playground, the agents we know, and any other agent seen in this range. */
function sourceOptions(seen: { source: string }[] | undefined, current: string | undefined): string[] {
  const out: string[] = [CONSOLE_SOURCE, PLAYGROUND_SOURCE, "claude-code", "codex"];
  for (const x of [...(seen ?? []).map((r) => r.source), current ?? ""]) if (x && !out.includes(x)) out.push(x);
  return out;
}

export function AuditDashboard({ isAdmin, openedAt }: { isAdmin: boolean; openedAt: number }) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const sp = useSearchParams();
  const search = sp.toString();
  const url = useMemo(() => readUrlFilter(new URLSearchParams(search)), [search]);
  const view = sp.get("view") === "violations" ? "violations" : "events";
  // The server passes the moment the page was rendered, so server and client HTML agree (hydration).
  const [now, setNow] = useState(openedAt);
  // A new URL is a new view: re-anchor the range at the moment it was opened.
  const [anchoredFor, setAnchoredFor] = useState(search);
  if (anchoredFor !== search) {
    setAnchoredFor(search);
    setNow(Date.now());
  }
  // Live: a relative range slides forward every 10 s, so new events appear without reloading.
  const [live, setLive] = useState(false);
  // A from/to that is no date is ignored (and said so below), so the range applies as if it were absent.
  const relative = !dateFieldValue(url.from) && !dateFieldValue(url.to);
  useEffect(() => {
    if (!live || !relative) return;
    const timer = setInterval(() => setNow(Date.now()), 10_000);
    return () => clearInterval(timer);
  }, [live, relative]);
  const filter = useMemo(() => toQueryFilter(url, now), [url, now]);
  const key = JSON.stringify(filter);
  // A shared URL whose From is after its To: said by the fields; nothing is asked (the server would refuse it too).
  const urlRangeProblem = auditRangeProblem(filter.from, filter.to);
  const summary = useQuery({ ...trpc.audit.summary.queryOptions(filter), placeholderData: keepPreviousData, enabled: !urlRangeProblem });
  // The fields' own refusal (From after To), shown until the next apply.
  const [rangeError, setRangeError] = useState<string | null>(null);
  const rangeNote = rangeError ?? urlRangeProblem;
  const ignoredDates = unreadableDates(url);

  // Each applied filter is a history entry, so Back returns to the view before it.
  const go = (next: UrlFilter, nextView: string = view) => {
    setRangeError(null);
    const qs = writeUrlFilter(next, { view: nextView === "events" ? undefined : nextView });
    router.push(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
  };

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const next: UrlFilter = {};
    for (const k of ["range", "type", "skill", "layer", "user", "session", "model", "tool", "outcome", "source"] as const) {
      const v = String(f.get(k) ?? "").trim();
      if (v) next[k] = v;
    }
    for (const k of ["from", "to"] as const) {
      const v = String(f.get(k) ?? "").trim();
      if (v) next[k] = new Date(v + "Z").toISOString(); // datetime-local inputs are read as UTC, like the table
    }
    const problem = auditRangeProblem(next.from ? Date.parse(next.from) : undefined, next.to ? Date.parse(next.to) : undefined);
    if (problem) return setRangeError(problem);
    go(next);
  }

  const datesSet = dateFieldValue(url.from) !== "" || dateFieldValue(url.to) !== "";
  // Picking a range means that range: dates left in the fields would silently override it.
  function clearDatesForRange(e: React.ChangeEvent<HTMLSelectElement>) {
    if (!e.currentTarget.value || !e.currentTarget.form) return;
    for (const k of ["from", "to"]) {
      const input = e.currentTarget.form.elements.namedItem(k);
      if (input instanceof HTMLInputElement) input.value = "";
    }
  }
  const exportHref = (format: "csv" | "jsonl") => `/api/audit/export?${queryFilterToSearch(filter)}&format=${format}`;
  const s = summary.data;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-xl font-semibold">Audit</h1>
          <p className="muted text-sm">
            {isAdmin ? "Every event, from everyone." : "Your own events (authors see what they did; admins see everything)."}
          </p>
          <RetentionLine />
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {isAdmin && <VerifyButton />}
          <a className="btn" href={exportHref("csv")} data-testid="export-csv" download>
            Export CSV
          </a>
          <a className="btn" href={exportHref("jsonl")} data-testid="export-jsonl" download>
            Export JSONL
          </a>
        </div>
      </div>

      <form key={search} onSubmit={onSubmit} className="card grid grid-cols-2 gap-2 sm:grid-cols-4 lg:grid-cols-6" aria-label="Audit filters">
        <label className="text-xs">
          Time range
          <select className="input" name="range" defaultValue={datesSet ? "" : (url.range ?? "7d")} aria-label="Time range" onChange={clearDatesForRange}>
            {/* An explicit From or To replaces the range (toQueryFilter): the select says so rather than show one unused. */}
            {datesSet && <option value="">From / To below</option>}
            {Object.entries(RANGES).map(([k, r]) => (
              <option key={k} value={k}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        <label className="text-xs">
          From (UTC, optional)
          <input className="input" type="datetime-local" name="from" defaultValue={dateFieldValue(url.from)} aria-label="From" aria-invalid={!!rangeNote || undefined} aria-describedby="audit-dates-note" />
        </label>
        <label className="text-xs">
          To (UTC, optional)
          <input className="input" type="datetime-local" name="to" defaultValue={dateFieldValue(url.to)} aria-label="To" aria-invalid={!!rangeNote || undefined} aria-describedby="audit-dates-note" />
        </label>
        <div id="audit-dates-note" className="col-span-2 text-xs sm:col-span-4 lg:col-span-6 empty:hidden">
          {rangeNote && (
            <p className="error-text" role="alert" data-testid="audit-range-error">
              {rangeNote}
            </p>
          )}
          {ignoredDates.map((d) => (
            <p key={d.key} className="text-amber-700 dark:text-amber-300" role="status" data-testid="audit-date-ignored">
              The address&apos;s {d.key === "from" ? "From" : "To"} value &quot;{d.value}&quot; is not a date, so it is ignored: pick a date in the field, or leave it empty for the time range.
            </p>
          ))}
        </div>
        <FilterSelect label="Event type" name="type" value={url.type} any="Any type">
          <Options values={AUDIT_EVENT_TYPES} />
        </FilterSelect>
        <FilterSelect label="Source" name="source" value={url.source} any="Any source">
          <Options values={sourceOptions(s?.sources, url.source)} label={sourceName} />
        </FilterSelect>
        <FilterSelect label="Outcome" name="outcome" value={url.outcome} any="Any outcome">
          <Options values={OUTCOMES} />
        </FilterSelect>
        {(["skill", "layer", "user", "session", "model", "tool"] as const).map((k) => (
          <label key={k} className="text-xs">
            {k === "user" ? "User (email or id)" : k[0]!.toUpperCase() + k.slice(1)}
            <input className="input" name={k} defaultValue={url[k] ?? ""} aria-label={k === "user" ? "User" : k[0]!.toUpperCase() + k.slice(1)} />
          </label>
        ))}
        <div className="col-span-2 flex items-end gap-2 sm:col-span-4 lg:col-span-6">
          <button className="btn btn-primary" type="submit">
            Apply filters
          </button>
          <button className="btn" type="button" onClick={() => go({})}>
            Clear
          </button>
          <button className="btn" type="button" onClick={() => setNow(Date.now())} title="Re-run with the range ending now">
            Refresh
          </button>
          <label className="flex items-center gap-1 text-sm" title={relative ? "" : "Live follows relative ranges only"}>
            <input type="checkbox" checked={live && relative} disabled={!relative} onChange={(e) => setLive(e.target.checked)} />
            Live (every 10 s)
          </label>
          <span className="muted ml-auto text-sm" data-testid="audit-count">
            {s ? count(s.count, "event") : summary.isLoading ? "Counting…" : ""}
          </span>
        </div>
      </form>
      {summary.error && !urlRangeProblem && <p className="error-text" data-testid="audit-error">{summary.error.message}</p>}

      <div className="grid gap-4 lg:grid-cols-2">
        <ChartCard title={`Events over time by type (per ${s?.series.bucket ?? "day"})`} testId="chart-timeseries">
          {s && <TimeSeriesChart points={s.series.points} bucket={s.series.bucket} from={filter.from} to={filter.to} />}
        </ChartCard>
        <ChartCard title="Top skills by activation" testId="chart-top-skills">
          {s && <BarList rows={s.topSkills.map((r) => ({ label: r.skill, n: r.n }))} empty="No skill activations in this range." />}
        </ChartCard>
        <ChartCard title="Events by source (agents report over OTLP)" testId="chart-sources">
          {s && (
            <BarList
              rows={s.sources.map((r) => ({ label: sourceLabel(r), n: r.n }))}
              color="#8b5cf6"
              empty="No events in this range."
              testId="source-bars"
            />
          )}
        </ChartCard>
        {/* Every refused event of the filter, by kind, skill and tool: its bars add up to the count in its title. */}
        <ChartCard title={s ? `Refusals: ${count(s.refusals.total, "event")} (by kind, skill and tool)` : "Refusals"} testId="chart-refusals">
          {s && <BarList rows={s.refusals.bars} color="#ef4444" empty="No refusals in this range." />}
        </ChartCard>
        <ChartCard title="Script runs by exit status" testId="chart-script-runs">
          {s && <BarList rows={s.scriptRuns.map((r) => ({ label: r.status, n: r.n }))} color="#10b981" empty="No script runs in this range." />}
        </ChartCard>
      </div>

      <div className="flex gap-1 border-b border-zinc-200 dark:border-zinc-800" role="tablist">
        {(["events", "violations"] as const).map((v) => (
          <button
            key={v}
            role="tab"
            aria-selected={view === v}
            className={`-mb-px border-b-2 px-3 py-1.5 text-sm ${view === v ? "border-indigo-600 font-medium" : "border-transparent text-zinc-500"}`}
            onClick={() => go(url, v)}
          >
            {v === "events" ? "Events" : "Violations"}
          </button>
        ))}
      </div>
      {urlRangeProblem ? null : view === "events" ? (
        <EventsTable key={key} filter={filter} onPick={(k, v) => go({ ...url, [k]: v })} />
      ) : (
        <ViolationsTable key={key} filter={filter} />
      )}
    </div>
  );
}

/** One of the filter form's selects: read on submit, empty for "any". */
function FilterSelect({ label, name, value, any, children }: { label: string; name: string; value: string | undefined; any: string; children: React.ReactNode }) {
  return (
    <label className="text-xs">
      {label}
      <select className="input" name={name} defaultValue={value ?? ""} aria-label={label}>
        <option value="">{any}</option>
        {children}
      </select>
    </label>
  );
}
