"use client";
// The override visualizer: what-if controls, the matrix (search, "overridden only"), and for the selected name
// the chain of candidates, a diff between any two definitions, and "Deploy to layer…".
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useDeferredValue, useEffect, useMemo, useState } from "react";
import { useTRPC } from "~/components/providers/trpc";
import { OtherUserOptions } from "~/components/users/other-user-options";
import { SKILL_STATES } from "~/server/domain/vocabulary";
import { DeployPanel } from "./deploy-panel";
import { DiffView } from "./diff-view";
import { MatrixGrid } from "./matrix-grid";
import { BlockNameButton } from "./policy-actions";
import { ResolutionChain } from "./resolution-chain";
import { StatusBadge } from "./status-badge";
import { writeLayersUrl, type LayersUrlState } from "./url-state";

interface WhatIf {
  userId?: string;
  environment?: string;
  agent?: string;
  tenant?: string;
}

export function LayersView({ initial = {} }: { initial?: LayersUrlState }) {
  const trpc = useTRPC();
  const options = useQuery(trpc.layers.options.queryOptions());
  const [whatIf, setWhatIf] = useState<WhatIf>({
    userId: initial.userId,
    environment: initial.environment,
    agent: initial.agent,
    tenant: initial.tenant,
  });
  const matrix = useQuery({ ...trpc.layers.matrix.queryOptions(whatIf), placeholderData: keepPreviousData });
  const [search, setSearch] = useState(initial.q ?? "");
  const [overriddenOnly, setOverriddenOnly] = useState(!!initial.overridden);
  const [selected, setSelected] = useState<string | null>(initial.name ?? null);
  const q = useDeferredValue(search.trim().toLowerCase());

  // Keep the view in the URL (replace, not push: typing a search should not fill the history).
  useEffect(() => {
    const url = writeLayersUrl({ ...whatIf, q: search, overridden: overriddenOnly, name: selected ?? undefined });
    if (url !== window.location.search) window.history.replaceState(null, "", `${window.location.pathname}${url}`);
  }, [whatIf, search, overriddenOnly, selected]);

  const rows = useMemo(() => {
    const all = matrix.data?.rows ?? [];
    return all.filter((r) => (!overriddenOnly || r.overridden) && (!q || r.name.toLowerCase().includes(q)));
  }, [matrix.data, overriddenOnly, q]);

  // The form edits a draft; "Apply what-if" makes it the context the matrix resolves with.
  const [draft, setDraft] = useState<WhatIf>(whatIf);
  const setField = (k: keyof WhatIf) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setDraft((d) => ({ ...d, [k]: e.target.value }));
  function applyWhatIf(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const val = (v: string | undefined) => v?.trim() || undefined;
    setWhatIf({ userId: val(draft.userId), environment: val(draft.environment), agent: val(draft.agent), tenant: val(draft.tenant) });
  }

  const waiting = useMemo(
    () => (matrix.data?.rows ?? []).reduce((n, r) => n + Object.values(r.cells).flat().filter((c) => c.status === "pending-approval").length, 0),
    [matrix.data],
  );
  const scope = options.data?.scope;
  const c = matrix.data?.counts;
  const isWhatIf = !!(whatIf.environment || whatIf.agent || whatIf.tenant || (whatIf.userId && whatIf.userId !== options.data?.me));
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-xl font-semibold">Layers</h1>
        {c && (
          <p className="muted text-sm" data-testid="layers-counts">
            {c.names} names · {c.definitions} definitions · {c.overridden} overridden · {c.active} active
            {waiting > 0 && (
              <>
                {" · "}
                {options.data?.isAdmin ? (
                  <Link className="text-violet-700 underline dark:text-violet-300" href="/policies">
                    {waiting} waiting for approval
                  </Link>
                ) : (
                  <span className="text-violet-700 dark:text-violet-300">{waiting} waiting for approval</span>
                )}
              </>
            )}
          </p>
        )}
      </div>

      <form onSubmit={applyWhatIf} className="card grid items-end gap-3 sm:grid-cols-5" aria-label="What-if">
        <label className="flex flex-col gap-1 text-xs font-medium">
          User (personal layer)
          <select className="input" name="userId" value={draft.userId ?? ""} onChange={setField("userId")} aria-label="User">
            <option value="">me</option>
            <OtherUserOptions users={options.data?.users} me={options.data?.me} />
          </select>
        </label>
        {(
          [
            ["environment", "Environment", scope?.environments],
            ["agent", "Agent type", scope?.agents],
            ["tenant", "Tenant", scope?.tenants],
          ] as const
        ).map(([key, label, values]) => (
          <label key={key} className="flex flex-col gap-1 text-xs font-medium">
            {label}
            <input
              className="input"
              name={key}
              list={`whatif-${key}`}
              placeholder={options.data?.defaults[key] ? `default: ${options.data.defaults[key]}` : "none (no default)"}
              aria-label={label}
              autoComplete="off"
              value={draft[key] ?? ""}
              onChange={setField(key)}
            />
            <datalist id={`whatif-${key}`}>
              {values?.map((v) => (
                <option key={v} value={v} />
              ))}
            </datalist>
          </label>
        ))}
        <div className="flex gap-2">
          <button className="btn btn-primary" type="submit">
            Apply what-if
          </button>
          <button
            className="btn"
            type="button"
            onClick={() => {
              setDraft({});
              setWhatIf({});
            }}
          >
            Reset
          </button>
        </div>
      </form>
      <p className="muted text-xs" data-testid="layers-rules">
        The layer decides first ({"enterprise › personal › project › plugin"}, or project before personal with{" "}
        <code>precedence: project-first</code>). <strong>Priority orders definitions of one name only inside one layer</strong>: a number
        set in a lower layer must never outrank what the organisation deployed above it, so a priority on a definition that is alone in its
        layer changes nothing (the doctor marks it in the editor). A skill scoped to environments, agents or tenants is active only when the
        context names a matching value; an empty field means the admin&apos;s default, and without one a scoped skill is out of scope.
      </p>
      {isWhatIf && (
        <p className="text-sm" data-testid="whatif-banner">
          Showing what an agent gets for{" "}
          <strong>
            {[
              whatIf.userId && whatIf.userId !== options.data?.me ? `user ${options.data?.users.find((u) => u.id === whatIf.userId)?.email ?? whatIf.userId}` : null,
              whatIf.environment && `environment ${whatIf.environment}`,
              whatIf.agent && `agent ${whatIf.agent}`,
              whatIf.tenant && `tenant ${whatIf.tenant}`,
            ]
              .filter(Boolean)
              .join(", ")}
          </strong>
          .
          {whatIf.userId && whatIf.userId !== options.data?.me && (
            <>
              {" "}
              <Link className="text-indigo-700 underline dark:text-indigo-300" href={`/skills?owner=${encodeURIComponent(whatIf.userId)}`}>
                Open this user&apos;s personal skills
              </Link>
            </>
          )}
        </p>
      )}

      <div className="flex flex-wrap items-center gap-3">
        <input
          className="input max-w-xs"
          type="search"
          placeholder="Search by name"
          aria-label="Search skills by name"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          data-testid="layers-search"
        />
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={overriddenOnly} onChange={(e) => setOverriddenOnly(e.target.checked)} />
          Overridden only
        </label>
        <span className="muted text-xs">{rows.length} shown</span>
        <span className="flex flex-wrap gap-1" aria-label="Legend">
          {SKILL_STATES.map((s) => (
            <StatusBadge key={s} status={s} />
          ))}
        </span>
      </div>

      {matrix.error && <p className="error-text">{matrix.error.message}</p>}
      {matrix.isLoading ? <p className="muted">Loading the layers…</p> : <MatrixGrid rows={rows} selected={selected} onSelect={setSelected} />}

      {selected && <Detail name={selected} whatIf={whatIf} targets={options.data?.deployTargets ?? []} isAdmin={!!options.data?.isAdmin} mayChangePolicy={!!options.data?.mayChangePolicy} />}
    </div>
  );
}

function Detail({ name, whatIf, targets, isAdmin, mayChangePolicy }: { name: string; whatIf: WhatIf; targets: ("enterprise" | "personal" | "project")[]; isAdmin: boolean; mayChangePolicy: boolean }) {
  const trpc = useTRPC();
  const ex = useQuery({ ...trpc.layers.explain.queryOptions({ name, ...whatIf }), retry: false });
  if (ex.error) return <p className="error-text">{ex.error.message}</p>;
  if (!ex.data) return <p className="muted">Loading “{name}”…</p>;
  return (
    <section className="space-y-4" aria-label={`Resolution of ${name}`} data-testid="layer-detail">
      <div className="grid gap-4 lg:grid-cols-2">
        <div className="card">
          <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
            <h2 className="text-lg font-semibold">{name}</h2>
            {mayChangePolicy && <BlockNameButton name={name} blocked={ex.data.onBlockList} />}
          </div>
          <ResolutionChain explanation={ex.data} isAdmin={isAdmin} />
        </div>
        <div className="space-y-3">
          <DeployPanel key={name} name={name} chain={ex.data.chain} targets={targets} />
        </div>
      </div>
      <div className="card">
        <h3 className="mb-2 font-semibold">Compare definitions</h3>
        <DiffView key={name + ex.data.chain.map((c) => c.id).join()} chain={ex.data.chain} userId={whatIf.userId} />
      </div>
    </section>
  );
}
