"use client";
// Every policy edit is proposed first (issue 41 item 2): a box says what it would change for the skills agents get
// (policy.preview, the Layers page's resolution before and after) with Apply and Cancel. Only Apply sends
// policy.change, so a switch or a list shows its new state once the server has stored (and audited) it.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/components/providers/trpc";
import type { PolicyChange } from "./types";

const onOff = (v: boolean | undefined) => (v ? "on" : "off");

/** The change in words, as the box's title. */
export function changeTitle(c: PolicyChange): string {
  switch (c.op) {
    case "block":
      return `Block "${c.name}" everywhere`;
    case "unblock":
      return `Unblock "${c.name}"`;
    case "disable":
      return `Disable the ${c.layer}${c.plugin ? ` (${c.plugin})` : ""} definition of "${c.name}"`;
    case "enable":
      return `Enable the ${c.layer}${c.plugin ? ` (${c.plugin})` : ""} definition of "${c.name}" again`;
    case "setAllowlist":
      return c.names === null ? "Turn the allowlist off" : `Allow only ${c.names.length} listed names`;
    case "setForbiddenPatterns":
      return `Save ${c.patterns.length} forbidden name patterns`;
    case "setRequireApproval": {
      const parts = [
        c.scripts !== undefined && `for skills with scripts: ${onOff(c.scripts)}`,
        c.project !== undefined && `for project skills: ${onOff(c.project)}`,
        c.sources !== undefined && `for git source updates: ${onOff(c.sources)}`,
      ].filter(Boolean);
      return `Require approval ${parts.join(", ")}`;
    }
    case "setAdminsEditPersonal":
      return `Administrators may change users' personal skills: ${onOff(c.allow)}`;
    case "setNameMustMatchFolder":
      return `A skill's name must match its folder: ${onOff(c.on)}`;
    case "setAllowReservedNames":
      return `Allow reserved words in names: ${onOff(c.allow)}`;
  }
}

/** The proposal waiting for Apply or Cancel, and the box that shows it. */
export function useProposedChange(apply: (c: PolicyChange) => void) {
  const [pending, setPending] = useState<PolicyChange | null>(null);
  const box = pending ? (
    <ChangePreview
      change={pending}
      onApply={() => {
        apply(pending);
        setPending(null);
      }}
      onCancel={() => setPending(null)}
    />
  ) : null;
  return { propose: setPending, box };
}

export function ChangePreview({ change, onApply, onCancel }: { change: PolicyChange; onApply: () => void; onCancel: () => void }) {
  const trpc = useTRPC();
  // Always asked afresh: a preview of yesterday's catalog would be no preview.
  const q = useQuery(trpc.policy.preview.queryOptions(change, { staleTime: 0, gcTime: 0, retry: false }));
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-black/30 p-4" onClick={onCancel}>
      <div
        role="dialog"
        aria-modal="true"
        aria-label="What this policy change does"
        className="card w-full max-w-lg space-y-3 bg-white dark:bg-zinc-900"
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => e.key === "Escape" && onCancel()}
      >
        <h2 className="font-semibold break-words">{changeTitle(change)}</h2>
        <div className="space-y-1 text-sm break-words" data-testid="policy-preview">
          {q.error ? (
            <p className="error-text">{q.error.message}</p>
          ) : !q.data ? (
            <p className="muted">Working out what this changes…</p>
          ) : (
            q.data.lines.map((l) => <p key={l}>{l}</p>)
          )}
        </div>
        {q.data && <p className="muted text-xs">As the Layers page resolves skills for you, with no environment, agent or tenant chosen.</p>}
        <div className="flex gap-2">
          <button className="btn btn-primary" disabled={!q.data} onClick={onApply} autoFocus>
            Apply
          </button>
          <button className="btn" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </div>
    </div>
  );
}
