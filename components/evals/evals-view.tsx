"use client";
// The Evals view of a skill (issue #17): its trigger set as a table, Run with a provider and mode, results
// arriving row by row, the confusion summary, the history of runs (F1 over versions) and the comparison with the
// previous run. The server decides every right; the page only mirrors canWrite.
import Link from "next/link";
import { skillsListHref } from "~/components/skills/links";
import { useEffect, useMemo, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC, useTRPCClient } from "~/components/providers/trpc";
import { downloadBase64 } from "~/components/editor/download";
import { HistoryChart } from "./history-chart";
import { RunResults } from "./run-results";
import { SetTable, withKeys } from "./set-table";
import { SuggestBox } from "./suggest-box";
import type { EditableCase, SkillRef } from "./types";
import { SkillViewTabs } from "./view-tabs";
import { useStatus } from "~/components/editor/hooks/use-status";
import { Options } from "~/components/shell/options";
import { DISCLOSURE_MODES } from "~/server/domain/vocabulary";
import { MAX_RUNS } from "~/server/domain/limits";
import { count } from "~/server/domain/plural";

const plain = (cases: EditableCase[]) => cases.map((c) => ({ query: c.query, should_trigger: c.should_trigger }));

/** What is wrong with a typed "Runs per query", or null (empty means the provider's default). Said, never dropped. */
function runsProblem(typed: string): string | null {
  const t = typed.trim();
  if (!t) return null;
  const n = /^\d+$/.test(t) ? Number(t) : NaN;
  return n >= 1 && n <= MAX_RUNS ? null : `Runs per query must be a whole number from 1 to ${MAX_RUNS}: "${t}" is not.`;
}

export function EvalsView({ skillRef }: { skillRef: SkillRef }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const qc = useQueryClient();
  const info = useQuery(trpc.skill.info.queryOptions({ ref: skillRef }));
  const set = useQuery(trpc.evals.getSet.queryOptions({ ref: skillRef }, { staleTime: 0 }));
  const runs = useQuery(trpc.evals.list.queryOptions({ ref: skillRef }, { staleTime: 0 }));
  const providers = useQuery(trpc.evals.providers.queryOptions(undefined, { staleTime: Infinity }));
  const [cases, setCases] = useState<EditableCase[]>([]);
  const [saved, setSaved] = useState("[]");
  const [provider, setProvider] = useState("offline");
  const [mode, setMode] = useState<(typeof DISCLOSURE_MODES)[number]>("tool");
  const [runsPer, setRunsPer] = useState("");
  const [selected, setSelected] = useState<number | null>(null);
  const { busy, error, setError, notice, setNotice, run: act } = useStatus();

  // The table is loaded from the file once per version of it: a background refetch of the same file must never
  // replace rows the author is typing.
  const [loadedDigest, setLoadedDigest] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    if (!set.data || set.data.digest === loadedDigest) return;
    setLoadedDigest(set.data.digest);
    setCases(withKeys(set.data.triggers));
    setSaved(JSON.stringify(set.data.triggers));
  }, [set.data, loadedDigest]);
  const latest = runs.data?.[0]?.id ?? null;
  const shownId = selected ?? latest;
  const run = useQuery({
    ...trpc.evals.get.queryOptions({ id: shownId ?? 0 }),
    enabled: shownId !== null,
    refetchInterval: (q) => (q.state.data?.status === "running" ? 400 : false),
  });
  const previousId = useMemo(() => runs.data?.find((r) => r.status === "done" && shownId !== null && r.id < shownId)?.id ?? null, [runs.data, shownId]);
  const previous = useQuery({ ...trpc.evals.get.queryOptions({ id: previousId ?? 0 }), enabled: previousId !== null });
  useEffect(() => {
    if (run.data && run.data.status !== "running") void qc.invalidateQueries({ queryKey: trpc.evals.list.queryKey({ ref: skillRef }) });
  }, [run.data?.status]); // eslint-disable-line react-hooks/exhaustive-deps

  // Editing waits for the stored set: rows added before it arrives would be replaced by it.
  const canWrite = info.data?.canWrite === true && set.data !== undefined;
  const dirty = JSON.stringify(plain(cases)) !== saved;
  const outcome = useMemo(() => new Map((run.data?.results ?? []).map((r) => [r.query, r.errored ? ("error" as const) : r.passed ? ("pass" as const) : ("fail" as const)])), [run.data]);

  const blank = cases.some((c) => !c.query.trim());
  async function save() {
    if (blank) return setError("Every query needs text (or remove the empty row).");
    const r = await act(() => client.evals.saveSet.mutate({ ref: skillRef, cases: plain(cases), baseDigest: set.data?.digest ?? null }));
    if (r) {
      setNotice("Saved evals/triggers.json (a new version of the skill).");
      await set.refetch();
    }
  }
  async function importJson(text: string) {
    const r = await act(() => client.evals.parseSet.mutate({ text }));
    if (!r) return;
    if (r.diagnostics.length) setError(r.diagnostics.map((d) => `line ${d.line}, column ${d.column}: ${d.message}`).join("\n"));
    if (r.cases.length) {
      setCases(withKeys(r.cases));
      setNotice(`Imported ${count(r.cases.length, "query", "queries")}; Save set to keep them.`);
    }
  }
  function exportJson() {
    const text = JSON.stringify(plain(cases), null, 2) + "\n";
    downloadBase64("triggers.json", btoa(unescape(encodeURIComponent(text))), "application/json");
  }
  async function start() {
    if (blank) return setError("Every query needs text (or remove the empty row).");
    const all = [...plain(cases), ...(set.data?.fromTasks ?? []).map((c) => ({ query: c.query, should_trigger: true }))];
    const problem = runsProblem(runsPer);
    if (problem) return setError(problem);
    const n = runsPer.trim() ? Number(runsPer.trim()) : undefined;
    const r = await act(() => client.evals.start.mutate({ ref: skillRef, provider: provider as "offline", mode, cases: all, ...(n ? { runs: n } : {}) }));
    if (!r) return;
    setSelected(r.id);
    await runs.refetch();
  }

  if (info.error) return <p className="error-text">{info.error.message}</p>;
  const running = run.data?.status === "running";
  return (
    <div className="flex flex-col gap-3" data-testid="evals-view">
      <div className="flex flex-wrap items-center gap-2">
        <Link href={skillsListHref(skillRef)} className="muted text-sm hover:underline">
          ← Skills
        </Link>
        <h1 className="text-xl font-semibold">{info.data?.name ?? skillRef.skill}</h1>
        <SkillViewTabs skillRef={skillRef} current="evals" />
      </div>
      <p className="muted text-sm">
        Does this skill fire when it should? Each query goes through what the agent really gets: your catalog, its listing under the budget, the chosen mode and
        provider. The offline provider is deterministic (one run per query); a model provider runs each query 3 times.
      </p>
      {set.data?.diagnostics.map((d, i) => (
        <p key={i} className="error-text text-sm">
          {d.file}:{d.line}:{d.column}: {d.message}
        </p>
      ))}
      {set.data?.hasExpectations && provider === "offline" && <p className="muted text-sm">evals.json has expectations: grading them needs a model provider; offline runs only check that its prompts trigger this skill.</p>}
      <SetTable cases={cases} onChange={setCases} canWrite={canWrite} dirty={dirty} busy={busy} onSave={() => void save()} onImport={(t) => void importJson(t)} onExport={exportJson} fromTasks={set.data?.fromTasks ?? []} outcome={outcome} />
      <section className="card flex flex-wrap items-end gap-2" aria-label="Run">
        <label className="text-sm">
          Provider
          <select className="input ml-1" aria-label="Provider" value={provider} onChange={(e) => setProvider(e.target.value)}>
            <Options<{ name: string; label: string }> values={providers.data ?? [{ name: "offline", label: "Offline" }]} value={(p) => p.name} label={(p) => p.label} />
          </select>
        </label>
        <label className="text-sm">
          Mode
          <select className="input ml-1" aria-label="Mode" value={mode} onChange={(e) => setMode(e.target.value as typeof mode)}>
            {DISCLOSURE_MODES.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          Runs per query
          <input
            className="input ml-1 w-16"
            aria-label="Runs per query"
            aria-invalid={runsProblem(runsPer) !== null}
            aria-describedby="runs-problem"
            placeholder={provider === "offline" ? "1" : "3"}
            value={runsPer}
            onChange={(e) => setRunsPer(e.target.value)}
          />
        </label>
        <button className="btn btn-primary" onClick={() => void start()} disabled={busy || running || cases.length + (set.data?.fromTasks.length ?? 0) === 0}>
          Run
        </button>
        {running && (
          <button className="btn" onClick={() => void act(() => client.evals.cancel.mutate({ id: run.data!.id }))}>
            Cancel run
          </button>
        )}
        {dirty && <span className="muted text-xs">Runs use the table as shown, saved or not.</span>}
        {runsProblem(runsPer) && (
          <p className="error-text w-full text-sm" id="runs-problem" role="alert" data-testid="runs-problem">
            {runsProblem(runsPer)}
          </p>
        )}
      </section>
      {error && (
        <p className="error-text whitespace-pre-wrap" data-testid="evals-error">
          {error}
        </p>
      )}
      {notice && <p className="text-sm text-emerald-700 dark:text-emerald-300">{notice}</p>}
      <SuggestBox skillRef={skillRef} provider={provider} mode={mode} canWrite={canWrite} onApplied={() => void info.refetch()} />
      {run.data && <RunResults run={run.data} previous={previous.data && previous.data.id !== run.data.id ? previous.data : null} />}
      {runs.data && runs.data.length > 0 && <HistoryChart runs={runs.data} selected={shownId} onSelect={setSelected} />}
    </div>
  );
}
