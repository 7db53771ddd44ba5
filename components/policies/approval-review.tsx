"use client";
// What an admin reads before approving (issue 41 item 3): the waiting SKILL.md against what agents get for that
// name now (a diff), or the whole text when nothing is active, and the doctor's findings. Loaded when opened.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "~/components/providers/trpc";
import { count } from "~/server/domain/plural";
import { FindingLine } from "~/components/doctor/severity";

const lineClass = (l: string) =>
  l.startsWith("+") && !l.startsWith("+++") ? "bg-emerald-50 text-emerald-900 dark:bg-emerald-950/40 dark:text-emerald-200" : l.startsWith("-") && !l.startsWith("---") ? "bg-rose-50 text-rose-900 dark:bg-rose-950/40 dark:text-rose-200" : "";

export function ApprovalReview({ id }: { id: number }) {
  const trpc = useTRPC();
  const q = useQuery({ ...trpc.policy.review.queryOptions({ id }), retry: false });
  if (q.error) return <p className="error-text text-xs">{q.error.message}</p>;
  if (!q.data) return <p className="muted text-xs">Reading the waiting version…</p>;
  const r = q.data;
  const open = r.findings.filter((f) => !f.silenced);
  return (
    <div className="mt-2 space-y-2 text-xs" data-testid="approval-review">
      <p>
        {r.active ? (
          <>
            Agents get the {r.active.layer}
            {r.active.plugin ? ` (plugin ${r.active.plugin})` : ""} definition now ({r.active.where}); approving this version replaces it with the changes below.
          </>
        ) : (
          <>Nothing of this name is active now: the whole text below is what approving makes active.</>
        )}
      </p>
      <pre className="max-h-80 overflow-auto rounded border border-zinc-200 p-2 font-mono whitespace-pre-wrap dark:border-zinc-800" data-testid="approval-text">
        {r.diff
          ? r.diff.split("\n").map((l, i) => (
              <span key={i} className={`block ${lineClass(l)}`}>
                {l || " "}
              </span>
            ))
          : r.text}
      </pre>
      {r.active && !r.diff && <p className="muted">The two versions are too far apart to compare line by line; the waiting text is shown whole.</p>}
      {r.truncated && <p className="muted">The text is cut here; open the skill to read the rest.</p>}
      <div data-testid="approval-findings">
        <p className="font-medium">Doctor: {open.length ? count(open.length, "finding") : "no findings"}</p>
        <ul>
          {open.map((f, i) => (
            <li key={i}>
              <FindingLine f={f} />
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
