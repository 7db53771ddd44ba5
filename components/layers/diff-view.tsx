"use client";
// Diff between any two layers' SKILL.md of one name.
import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useState } from "react";
import { useTRPC } from "~/components/providers/trpc";
import type { ChainLink } from "./types";
import { stateLabel } from "~/components/skills/skill-state";
import { usePrefersDark } from "~/components/editor/hooks/use-system-theme";

const MonacoDiff = dynamic(() => import("./monaco-diff"), {
  ssr: false,
  loading: () => <p className="muted p-4 text-sm">Loading the diff editor…</p>,
});

const labelOf = (c: ChainLink) => `${c.layer}${c.plugin ? ` (${c.plugin})` : ""} — ${stateLabel(c.status)}`;

export function DiffView({ chain, userId }: { chain: ChainLink[]; userId?: string }) {
  const trpc = useTRPC();
  const [left, setLeft] = useState(chain[1]?.id ?? chain[0]!.id);
  const [right, setRight] = useState(chain[0]!.id);
  const dark = usePrefersDark();
  const a = useQuery(trpc.layers.definition.queryOptions({ id: left, userId }));
  const b = useQuery(trpc.layers.definition.queryOptions({ id: right, userId }));
  if (chain.length < 2) return <p className="muted text-sm">Only one definition of this name: nothing to compare.</p>;
  const picker = (label: string, value: string, set: (v: string) => void) => (
    <label className="flex flex-1 flex-col gap-1 text-xs font-medium">
      {label}
      <select className="input" value={value} onChange={(e) => set(e.target.value)} aria-label={label}>
        {chain.map((c) => (
          <option key={c.id} value={c.id}>
            {labelOf(c)}
          </option>
        ))}
      </select>
    </label>
  );
  const error = a.error ?? b.error;
  return (
    <div className="space-y-2" data-testid="layer-diff">
      <div className="flex gap-3">
        {picker("Compare (left)", left, setLeft)}
        {picker("with (right)", right, setRight)}
      </div>
      {error && <p className="error-text">{error.message}</p>}
      {a.data && b.data && (
        <div className="overflow-hidden rounded-md border border-zinc-200 dark:border-zinc-800">
          <div className="muted flex justify-between px-2 py-1 font-mono text-xs">
            <span>{a.data.where}/SKILL.md</span>
            <span>{b.data.where}/SKILL.md</span>
          </div>
          <MonacoDiff original={a.data.content} modified={b.data.content} dark={dark} />
        </div>
      )}
    </div>
  );
}
