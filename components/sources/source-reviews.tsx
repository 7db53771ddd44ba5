"use client";
// Source updates waiting for review: each skill a proposed commit changes, with its diff between the pinned and the
// proposed commit, approved or rejected like any approval (policy.decide). The pin moves when the last is approved.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/components/providers/trpc";
import { ErrorLine, useListActions } from "~/components/shell/list-actions";
import { Section } from "~/components/shell/section";

export function SourceReviews() {
  const trpc = useTRPC();
  const q = useQuery(trpc.sources.reviews.queryOptions());
  const { error, done, fail } = useListActions(trpc.sources.pathKey(), trpc.policy.pathKey(), trpc.skill.pathKey(), trpc.layers.pathKey());
  const decide = useMutation(trpc.policy.decide.mutationOptions({ onSuccess: done, onError: fail }));
  const [comments, setComments] = useState<Record<number, string>>({});
  if (!q.data?.length) return null;
  return (
    <Section label="Source updates to review" title="Source updates to review" hint="Each skill a new commit changes waits for an approval; the source moves to that commit once every change is approved.">
      <ErrorLine error={error} testId="source-review-error" />
      {q.data.map((r) => (
        <details key={r.id} className="rounded-md border border-zinc-200 p-2 dark:border-zinc-700" data-testid={`source-review-${r.source}-${r.skill}`}>
          <summary className="cursor-pointer text-sm">
            <strong>{r.plugin ? `${r.skill}@${r.plugin}` : r.skill}</strong> from source {r.source}: <code>{r.from.slice(0, 12)}</code> → <code>{r.to.slice(0, 12)}</code>
            {r.requestedBy ? ` · asked by ${r.requestedBy}` : ""}
            {r.stale && <span className="ml-2 text-amber-700 dark:text-amber-300">the source moved since; approving it changes nothing</span>}
          </summary>
          <pre className="mt-2 max-h-96 overflow-auto rounded bg-zinc-50 p-2 text-xs dark:bg-zinc-900" data-testid="source-review-diff">
            {r.diff || "(no difference in the skill's files)"}
          </pre>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <input
              className="input min-w-0 flex-1"
              placeholder="Comment (needed to reject)"
              aria-label={`Comment on ${r.skill}`}
              maxLength={2000}
              value={comments[r.id] ?? ""}
              onChange={(e) => setComments({ ...comments, [r.id]: e.target.value })}
            />
            <button className="btn btn-primary" type="button" disabled={decide.isPending} onClick={() => decide.mutate({ id: r.id, decision: "approved", comment: comments[r.id] ?? "" })} aria-label={`Approve ${r.skill} from ${r.source}`}>
              Approve
            </button>
            <button className="btn" type="button" disabled={decide.isPending} onClick={() => decide.mutate({ id: r.id, decision: "rejected", comment: comments[r.id] ?? "" })} aria-label={`Reject ${r.skill} from ${r.source}`}>
              Reject
            </button>
          </div>
        </details>
      ))}
    </Section>
  );
}
