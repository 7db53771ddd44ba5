"use client";
// Starting a session: provider and model (offline unless a real one is configured), disclosure mode, the
// scope (environment, agent, tenant, as in the layers view) and optionally a subset of skills.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/components/providers/trpc";
import { DISCLOSURE_MODES, type DisclosureMode } from "~/server/domain/vocabulary";
import { Options } from "~/components/shell/options";

export function NewSessionForm({ onCreated }: { onCreated: (id: string) => void }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const options = useQuery(trpc.playground.options.queryOptions());
  const [provider, setProvider] = useState("offline");
  const [error, setError] = useState<string | null>(null);
  const create = useMutation(
    trpc.playground.create.mutationOptions({
      onSuccess: (s) => {
        setError(null);
        void qc.invalidateQueries({ queryKey: trpc.playground.list.queryKey() });
        onCreated(s.id);
      },
      onError: (e) => setError(e.message),
    }),
  );
  const o = options.data;
  const choice = o?.providers.find((p) => p.name === provider);

  function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const str = (k: string) => String(f.get(k) ?? "").trim() || undefined;
    create.mutate({
      title: str("title"),
      provider: provider as "offline" | "openai" | "anthropic",
      model: str("model"),
      mode: (str("mode") ?? "tool") as DisclosureMode,
      environment: str("environment"),
      agent: str("agent"),
      tenant: str("tenant"),
      skills: f.getAll("skills").map(String),
    });
  }

  if (!o) return <p className="muted text-sm">Loading…</p>;
  return (
    <form onSubmit={submit} className="space-y-2 text-sm" aria-label="New session">
      <input className="input" name="title" placeholder="Title (optional)" aria-label="Title" />
      <label className="block">
        <span className="muted text-xs">Provider</span>
        <select className="input" aria-label="Provider" value={provider} onChange={(e) => setProvider(e.target.value)}>
          <Options values={o.providers} value={(p) => p.name} label={(p) => p.label} />
        </select>
      </label>
      <label className="block">
        <span className="muted text-xs">Model</span>
        <input
          key={provider}
          className="input"
          name="model"
          aria-label="Model"
          defaultValue={choice?.defaultModel}
          readOnly={!choice?.modelEditable}
        />
      </label>
      <label className="block">
        <span className="muted text-xs">Disclosure mode</span>
        <select className="input" name="mode" aria-label="Disclosure mode" defaultValue="tool">
          <Options values={DISCLOSURE_MODES} />
        </select>
      </label>
      {(["environment", "agent", "tenant"] as const).map((k) => {
        const values = k === "environment" ? o.scope.environments : k === "agent" ? o.scope.agents : o.scope.tenants;
        return (
          <label key={k} className="block">
            <span className="muted text-xs capitalize">{k}</span>
            <input className="input" name={k} aria-label={k[0]!.toUpperCase() + k.slice(1)} list={`pg-${k}`} placeholder="any" />
            <datalist id={`pg-${k}`}>
              {values.map((v) => (
                <option key={v} value={v} />
              ))}
            </datalist>
          </label>
        );
      })}
      <details>
        <summary className="cursor-pointer text-xs">Only some skills (default: every skill)</summary>
        <div className="mt-1 max-h-40 space-y-0.5 overflow-auto">
          {o.skills.map((s) => (
            <label key={`${s.layer}:${s.name}`} className="flex items-center gap-1.5 text-xs" title={s.description}>
              <input type="checkbox" name="skills" value={s.name} /> {s.name} <span className="muted">({s.layer})</span>
            </label>
          ))}
        </div>
      </details>
      <p className="muted text-xs">Sandbox: {o.sandbox.mode}</p>
      {error && (
        <p className="error-text" data-testid="new-session-error">
          {error}
        </p>
      )}
      <button className="btn btn-primary w-full justify-center" type="submit" disabled={create.isPending}>
        Start session
      </button>
    </form>
  );
}
