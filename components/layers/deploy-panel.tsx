"use client";
// "Deploy to layer…": choose a definition and a target layer, see first which agents' resolution would change
// (the server computes it with the registry's resolve), then confirm.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/components/providers/trpc";
import type { ChainLink, DeployFinding } from "./types";
import { StatusBadge } from "./status-badge";
import { Options } from "~/components/shell/options";
import { count } from "~/server/domain/plural";
import { FindingLine } from "~/components/doctor/severity";

type Target = "enterprise" | "personal" | "project";

export function DeployPanel({ name, chain, targets }: { name: string; chain: ChainLink[]; targets: Target[] }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const loadable = chain.filter((c) => c.status !== "invalid");
  const [fromId, setFromId] = useState(loadable.find((c) => c.status === "active")?.id ?? loadable[0]?.id ?? "");
  // Until a person picks one, the target is the first layer that is not the chosen definition's own: a copy onto
  // itself is refused (it was a 400 as the panel opened, issue 41 item 6). Worked out on each render, since the
  // targets arrive after the panel mounts.
  const [picked, setTarget] = useState<Target | null>(null);
  const ownLayer = chain.find((c) => c.id === fromId)?.layer;
  const target = picked ?? targets.find((t) => t !== ownLayer) ?? targets[0] ?? "project";
  const [replace, setReplace] = useState(false);
  const [anyway, setAnyway] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const preview = useQuery({ ...trpc.layers.deployPreview.queryOptions({ name, fromId, target }), enabled: open && !!fromId, retry: false });
  const deploy = useMutation(
    trpc.layers.deploy.mutationOptions({
      onSuccess: (r) => {
        setDone(r.message);
        void qc.invalidateQueries({ queryKey: trpc.layers.pathKey() });
      },
    }),
  );
  if (!targets.length) return null;
  if (!open) {
    return (
      <button className="btn" onClick={() => setOpen(true)} data-testid="deploy-open">
        Deploy to layer…
      </button>
    );
  }
  const p = preview.data;
  const high = p?.findings.filter((f) => f.severity === "high").length ?? 0;
  return (
    <section className="card space-y-3" aria-label="Deploy" data-testid="deploy-panel">
      <div className="flex items-center justify-between">
        <h3 className="font-semibold">Deploy “{name}” to a layer</h3>
        <button className="btn" onClick={() => setOpen(false)}>
          Close
        </button>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="flex flex-col gap-1 text-xs font-medium">
          Copy this definition
          <select className="input" value={fromId} onChange={(e) => setFromId(e.target.value)} aria-label="Source definition">
            {loadable.map((c) => (
              <option key={c.id} value={c.id}>
                {c.layer}
                {c.plugin ? ` (${c.plugin})` : ""} — {c.where}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium">
          into the layer
          <select className="input" value={target} onChange={(e) => setTarget(e.target.value as Target)} aria-label="Target layer">
            <Options values={targets} />
          </select>
        </label>
      </div>
      {preview.isLoading && <p className="muted text-sm">Working out what would change…</p>}
      {preview.error && <p className="error-text">{preview.error.message}</p>}
      {p && (
        <div className="space-y-2" data-testid="deploy-preview">
          <p className="text-sm">
            Writes <code className="font-mono text-xs">{p.to.where}</code>
            {p.to.exists ? " (a copy already exists there and would be replaced)" : ""}.{" "}
            <strong>
              {p.changedContexts === 0
                ? "No agent's resolution changes."
                : `${p.changedContexts} of ${p.rows.length} contexts get a different definition.`}
            </strong>
          </p>
          <table className="table">
            <thead>
              <tr>
                <th>Context</th>
                <th>Agents get now</th>
                <th>After the deploy</th>
                <th>The copy</th>
              </tr>
            </thead>
            <tbody>
              {p.rows.map((r) => (
                <tr key={r.label} className={r.changes ? "bg-amber-50/60 dark:bg-amber-950/20" : ""}>
                  <td>
                    {r.label}
                    {r.changes && <span className="badge ml-1 bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-100">changes</span>}
                  </td>
                  <td>{r.before ? `${r.before.layer}${r.before.plugin ? ` (${r.before.plugin})` : ""}` : "nothing"}</td>
                  <td>{r.after ? `${r.after.layer}${r.after.isCopy ? " (the copy)" : ""}` : "nothing"}</td>
                  <td title={r.copyReason}>{r.copyStatus === "absent" ? "—" : <StatusBadge status={r.copyStatus} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <DeployFindings findings={p.findings} />
          {high > 0 && (
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={anyway} onChange={(e) => setAnyway(e.target.checked)} /> Deploy anyway, with {count(high, "high finding")} (the audit log records
              them)
            </label>
          )}
          {p.to.exists && (
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.target.checked)} /> Replace the existing {target} copy
            </label>
          )}
          {deploy.error && <p className="error-text">{deploy.error.message}</p>}
          {done && (
            <p className="text-sm text-emerald-800 dark:text-emerald-200" data-testid="deploy-done">
              Deployed. {done}
            </p>
          )}
          <button
            className="btn btn-primary"
            disabled={deploy.isPending || (p.to.exists && !replace) || (high > 0 && !anyway)}
            onClick={() => deploy.mutate({ name, fromId, target, replace, expectDigest: p.from.digest, acceptFindings: anyway })}
          >
            {high > 0 ? "Deploy anyway" : "Deploy"} to {target}
          </button>
        </div>
      )}
    </section>
  );
}

/** The source's doctor findings, the same the editor's problem list shows, before anything is copied. */
function DeployFindings({ findings }: { findings: DeployFinding[] }) {
  if (findings.length === 0) return <p className="muted text-sm">The doctor finds nothing in this definition.</p>;
  return (
    <div className="text-sm" data-testid="deploy-findings">
      <p className="font-medium">The doctor finds {count(findings.length, "problem")} in this definition:</p>
      <ul className="text-xs">
        {findings.map((f, i) => (
          <li key={i}>
            <FindingLine f={f} />
          </li>
        ))}
      </ul>
    </div>
  );
}
