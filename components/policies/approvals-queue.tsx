"use client";
// Skills waiting for an admin: approve or reject each exact version, with a comment.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/components/providers/trpc";
import type { ApprovalItem } from "./types";
import { DataTable } from "~/components/shell/data-table";
import { ApprovalReview } from "./approval-review";

export function ApprovalsQueue() {
  const trpc = useTRPC();
  const q = useQuery(trpc.policy.approvals.queryOptions());
  const pending = q.data?.items.filter((i) => i.status === "pending") ?? [];
  const rejected = q.data?.items.filter((i) => i.status === "rejected") ?? [];
  return (
    <section className="card space-y-3" aria-label="Approvals" data-testid="approvals">
      <h2 className="font-semibold">
        Waiting for approval <span className="badge bg-violet-100 text-violet-900 dark:bg-violet-950/60 dark:text-violet-200">{pending.length}</span>
      </h2>
      {q.error && <p className="error-text">{q.error.message}</p>}
      {q.isLoading && <p className="muted text-sm">Looking for skills that need approval…</p>}
      {q.data && pending.length === 0 && <p className="muted text-sm">Nothing is waiting.</p>}
      <ul className="space-y-2">
        {pending.map((i) => (
          <ApprovalRow key={i.id} item={i} />
        ))}
      </ul>
      {rejected.length > 0 && (
        <details>
          <summary className="cursor-pointer text-sm font-medium">Rejected versions still on disk ({rejected.length})</summary>
          <ul className="mt-2 space-y-2">
            {rejected.map((i) => (
              <ApprovalRow key={i.id} item={i} />
            ))}
          </ul>
        </details>
      )}
      {q.data && q.data.recent.length > 0 && (
        <details>
          <summary className="cursor-pointer text-sm font-medium">Recent decisions</summary>
          <DataTable columns={["Skill", "Layer", "Version", "Decision", "By", "Comment"]} card={false} className="mt-2">
            {q.data.recent.map((r) => (
              <tr key={r.id}>
                <td>{r.skill}</td>
                <td>
                  {r.layer}
                  {r.plugin ? ` (${r.plugin})` : ""}
                </td>
                <td className="font-mono text-xs">{r.digest.slice(0, 12)}</td>
                <td>{r.status}</td>
                <td>{r.decidedBy}</td>
                <td>{r.comment}</td>
              </tr>
            ))}
          </DataTable>
        </details>
      )}
    </section>
  );
}

function ApprovalRow({ item }: { item: ApprovalItem }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [comment, setComment] = useState("");
  const [reviewing, setReviewing] = useState(false);
  const decide = useMutation(
    trpc.policy.decide.mutationOptions({
      onSuccess: () => {
        void qc.invalidateQueries({ queryKey: trpc.policy.pathKey() });
        void qc.invalidateQueries({ queryKey: trpc.layers.pathKey() });
      },
    }),
  );
  return (
    <li className="rounded-md border border-zinc-200 p-2 dark:border-zinc-800" data-testid={`approval-row-${item.skill}`}>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-semibold">{item.skill}</span>
        <span className="badge bg-zinc-100 dark:bg-zinc-800">
          {item.layer}
          {item.plugin ? ` · ${item.plugin}` : ""}
        </span>
        {item.hasScripts && <span className="badge bg-zinc-100 dark:bg-zinc-800">has scripts</span>}
        <span className="muted font-mono text-xs">
          {item.where} · version {item.digest.slice(0, 12)}
        </span>
        {item.status === "rejected" && (
          <span className="badge bg-rose-100 text-rose-900 dark:bg-rose-950/60 dark:text-rose-200">
            rejected by {item.decidedBy}: {item.comment}
          </span>
        )}
      </div>
      <p className="muted mt-1 text-xs">
        {item.reason}
        {item.requestedBy ? ` · last saved by ${item.requestedBy}` : ""}
      </p>
      {/* Read only when opened: a long queue asks for no text nobody looks at. */}
      <details className="mt-1" onToggle={(e) => setReviewing(e.currentTarget.open)}>
        <summary className="cursor-pointer text-xs font-medium">What changes</summary>
        {reviewing && <ApprovalReview id={item.id} />}
      </details>
      {item.shadowedBy && (
        <p className="mt-1 text-xs text-amber-700 dark:text-amber-300" data-testid="approval-shadowed">
          Shadowed: {item.shadowedBy} wins this name, so approving this version changes nothing while that one is there.
        </p>
      )}
      {item.mayDecide ? (
        <div className="mt-2 flex flex-wrap gap-2">
          <input className="input max-w-md" placeholder="Comment (required to reject)" aria-label={`Comment on ${item.skill}`} value={comment} onChange={(e) => setComment(e.target.value)} />
          <button className="btn btn-primary" disabled={decide.isPending} onClick={() => decide.mutate({ id: item.id, decision: "approved", comment })}>
            Approve
          </button>
          <button className="btn btn-danger" disabled={decide.isPending} onClick={() => decide.mutate({ id: item.id, decision: "rejected", comment })}>
            Reject
          </button>
        </div>
      ) : (
        <p className="muted mt-2 text-xs" data-testid="approval-global-only">
          The global admin decides this one: the skill is unscoped or also another tenant&apos;s, so it reaches beyond your tenants.
        </p>
      )}
      {decide.error && <p className="error-text mt-2">{decide.error.message}</p>}
    </li>
  );
}
