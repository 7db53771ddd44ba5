"use client";
// The candidates of one name drawn as a vertical chain, highest precedence at the top: each link says where the
// definition lives and why it won or lost (the registry's own sentence).
import type { Explanation } from "./types";
import { LinkActions } from "./policy-actions";
import { LAYER_LABEL } from "~/server/domain/vocabulary";
import { StatusBadge } from "./status-badge";
import { count } from "~/server/domain/plural";

export function ResolutionChain({ explanation, isAdmin = false }: { explanation: Explanation; isAdmin?: boolean }) {
  return (
    <div>
      <p className="text-sm" data-testid="resolution-summary">
        {explanation.summary}
      </p>
      {explanation.warnings.map((w) => (
        <p key={w} className="mt-1 text-xs text-yellow-800 dark:text-yellow-200">
          ⚠ {w}
        </p>
      ))}
      <p className="muted mt-2 text-xs">Precedence: {explanation.layerOrder.join(" › ")} (priority only orders definitions inside one layer)</p>
      <ol className="relative mt-3 ml-3 border-l-2 border-zinc-300 dark:border-zinc-700" data-testid="resolution-chain" aria-label="Candidates, highest first">
        {explanation.chain.map((c, i) => {
          const won = c.status === "active";
          return (
            <li key={c.id} className="relative mb-4 ml-5 last:mb-0" data-testid={`chain-item-${c.layer}${c.plugin ? `-${c.plugin}` : ""}`}>
              <span
                aria-hidden
                className={`absolute top-1.5 -left-[1.95rem] flex h-5 w-5 items-center justify-center rounded-full text-[10px] font-bold ring-2 ${
                  won ? "bg-emerald-500 text-white ring-emerald-200 dark:ring-emerald-900" : "bg-white text-zinc-600 ring-zinc-300 dark:bg-zinc-900 dark:text-zinc-300 dark:ring-zinc-700"
                }`}
              >
                {i + 1}
              </span>
              <div className={`rounded-md border p-2 ${won ? "border-emerald-400 dark:border-emerald-700" : "border-zinc-200 dark:border-zinc-800"}`}>
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold">
                    {LAYER_LABEL[c.layer]}
                    {c.plugin ? ` · ${c.plugin}` : ""}
                  </span>
                  <StatusBadge status={c.status} />
                  {c.priority !== 0 && <span className="badge bg-zinc-100 dark:bg-zinc-800">priority {c.priority}</span>}
                  {c.hasScripts && <span className="badge bg-zinc-100 dark:bg-zinc-800">has scripts</span>}
                  {c.scope && (
                    <span className="badge bg-sky-50 text-sky-900 dark:bg-sky-950/50 dark:text-sky-200">
                      scope:{" "}
                      {Object.entries(c.scope)
                        .filter(([, v]) => v?.length)
                        .map(([k, v]) => `${k}=${(v as string[]).join("|")}`)
                        .join(" ")}
                    </span>
                  )}
                </div>
                <p className="mt-1 text-sm" data-testid="chain-reason">
                  {c.reason}
                </p>
                <p className="muted mt-0.5 font-mono text-xs break-all">
                  {c.where} · SKILL.md {c.digest.slice(0, 12)}
                  {c.errors ? ` · ${count(c.errors, "error")}` : ""}
                  {c.warnings ? ` · ${count(c.warnings, "warning")}` : ""}
                </p>
                {c.approval?.status === "rejected" && (
                  <p className="mt-1 text-xs text-rose-800 dark:text-rose-200" data-testid="approval-note">
                    This version was rejected by {c.approval.decidedBy ?? "an admin"}
                    {c.approval.comment ? `: “${c.approval.comment}”` : "."} Edit the skill to ask again.
                  </p>
                )}
                {c.approval?.status === "pending" && (
                  <p className="muted mt-1 text-xs" data-testid="approval-note">
                    In the admins’ approval queue.
                  </p>
                )}
                {isAdmin && <LinkActions name={explanation.name} link={c} />}
              </div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
