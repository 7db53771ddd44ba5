"use client";
// Policies and approvals (admin). Every change is one small server-side operation, recorded as policy_changed
// with before and after; the server refuses non-admins whatever this page shows.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import Link from "next/link";
import { useTRPC } from "~/components/providers/trpc";
import { count, plural } from "~/server/domain/plural";
import type { PolicyChange } from "./types";
import { ApprovalsQueue } from "./approvals-queue";
import { SourceReviews } from "~/components/sources/source-reviews";
import { CatalogNames } from "./pattern-preview";
import { PolicyToggle } from "./policy-fields";
import { useProposedChange } from "./change-preview";
import { Allowlist, BlockedNames, DisabledDefinitions, ForbiddenNames, type Unmatched } from "./name-rules";
import { Section } from "~/components/shell/section";
import { ErrorLine, useListActions } from "~/components/shell/list-actions";

export function PoliciesAdmin() {
  const trpc = useTRPC();
  const q = useQuery(trpc.policy.get.queryOptions());
  // Policy changes what every view resolves: a change refreshes policy, approvals and the layers matrix.
  const { error, done, fail } = useListActions(trpc.policy.pathKey(), trpc.layers.pathKey());
  // What the last change's names match nothing of today (the server says it; the rule is kept).
  const [unmatched, setUnmatched] = useState<Unmatched>(null);
  const change = useMutation(
    trpc.policy.change.mutationOptions({
      onSuccess: (r, c) => {
        setUnmatched(r.unmatched.length ? { op: c.op, lines: r.unmatched } : null);
        done();
      },
      onError: fail,
    }),
  );
  const apply = (c: PolicyChange) => {
    setUnmatched(null);
    change.mutate(c);
  };
  // Every edit below is proposed first: the box says what it changes, and only its Apply calls apply.
  const { propose, box } = useProposedChange(apply);
  // Names of the catalog for completion and for the patterns' preview.
  const list = useQuery(trpc.skill.list.queryOptions({ limit: 500, sort: "name" }, { staleTime: 30_000 }));
  const names = [...new Set((list.data?.rows ?? []).map((r) => r.name))];
  if (q.error) return <p className="error-text">{q.error.message}</p>;
  if (!q.data) return <p className="muted">Loading policies…</p>;
  const p = q.data.policy;

  return (
    <div className="space-y-6">
      <CatalogNames names={names} />
      {box}
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-xl font-semibold">Policies</h1>
        <p className="text-sm">
          History in the audit log:{" "}
          <Link className="text-indigo-700 underline dark:text-indigo-300" href="/audit?type=policy_changed&range=all">
            policy changes
          </Link>{" "}
          ·{" "}
          <Link className="text-indigo-700 underline dark:text-indigo-300" href="/audit?type=approval_decided&range=all">
            approval decisions
          </Link>{" "}
          ·{" "}
          <Link className="text-indigo-700 underline dark:text-indigo-300" href="/layers?overridden=1">
            overridden skills
          </Link>
        </p>
      </div>
      <ErrorLine error={error} testId="policy-error" />
      {!q.data.mayChange && (
        <p className="muted text-sm" data-testid="policy-read-only">
          You read the policy: it governs every tenant, so only the global admin (an admin of no tenant) changes it. You decide the approvals of
          your tenants&apos; skills below.
        </p>
      )}
      {q.data.hiddenRules > 0 && (
        <p className="muted text-sm" data-testid="policy-hidden-rules">
          {count(q.data.hiddenRules, "rule")} {plural(q.data.hiddenRules, "names a skill", "name skills")} of another tenant and {plural(q.data.hiddenRules, "is", "are")} not shown.
        </p>
      )}
      {/* A tenant admin's controls are disabled as a whole (the server refuses the change anyway). */}
      <fieldset disabled={!q.data.mayChange} className="min-w-0 space-y-6">
        <Section label="Approvals required" title="Approval required" hint="A skill that needs approval is listed everywhere but stays inactive until an admin approves its exact version. Enterprise skills are exempt.">
          <PolicyToggle label="Require approval for skills with scripts" checked={p.requireApprovalForScripts} onChange={(on) => propose({ op: "setRequireApproval", scripts: on })} />
          <PolicyToggle label="Require approval for project skills" checked={p.requireApprovalForProject} onChange={(on) => propose({ op: "setRequireApproval", project: on })} />
          <PolicyToggle label="Require approval for git source updates" checked={!!p.requireApprovalForSources} onChange={(on) => propose({ op: "setRequireApproval", sources: on })}>
            Require approval of each skill a git source update changes (reviewed on the Sources page)
          </PolicyToggle>
          <PolicyToggle label="A skill's name must match its folder" checked={p.nameMustMatchFolder} onChange={(on) => propose({ op: "setNameMustMatchFolder", on })}>
            A skill&apos;s name must match its folder (otherwise such a skill loads under its name with a warning)
          </PolicyToggle>
        </Section>

        <Section label="Personal skills" title="Personal skills" hint="Administrators can always open any user's personal skills to review them, read-only; each visit is in the audit log.">
          <PolicyToggle label="Administrators may change users' personal skills" checked={p.adminsEditPersonal} onChange={(allow) => propose({ op: "setAdminsEditPersonal", allow })}>
            Administrators may also change users&apos; personal skills
          </PolicyToggle>
        </Section>
      </fieldset>
      <ApprovalsQueue />
      {q.data.mayChange && <SourceReviews />}

      <fieldset disabled={!q.data.mayChange} className="min-w-0 space-y-6">
        <BlockedNames p={p} apply={propose} unmatched={unmatched} />
        <DisabledDefinitions p={p} apply={propose} unmatched={unmatched} />
        <Allowlist p={p} apply={propose} unmatched={unmatched} />
        <ForbiddenNames p={p} apply={propose} names={names} vendorWords={q.data.vendorWordPatterns} />
      </fieldset>
    </div>
  );
}
