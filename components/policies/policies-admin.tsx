"use client";
// Policies and approvals (admin). Every change is one small server-side operation, recorded as policy_changed
// with before and after; the server refuses non-admins whatever this page shows.
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "~/components/providers/trpc";
import { LAYERS } from "~/server/domain/vocabulary";
import type { PolicyChange } from "~/server/services/governance/policy-change";
import { ApprovalsQueue } from "./approvals-queue";
import { CatalogNames, PatternPreview } from "./pattern-preview";
import { ListTextarea, PolicyToggle } from "./policy-fields";
import { Section } from "~/components/shell/section";
import { ErrorLine, useListActions } from "~/components/shell/list-actions";

export function PoliciesAdmin() {
  const trpc = useTRPC();
  const q = useQuery(trpc.policy.get.queryOptions());
  // Policy changes what every view resolves: a change refreshes policy, approvals and the layers matrix.
  const { error, done, fail } = useListActions(trpc.policy.pathKey(), trpc.layers.pathKey());
  const change = useMutation(trpc.policy.change.mutationOptions({ onSuccess: done, onError: fail }));
  const apply = (c: PolicyChange) => change.mutate(c);
  // Names of the catalog for completion and for the patterns' preview.
  const list = useQuery(trpc.skill.list.queryOptions({ limit: 500, sort: "name" }, { staleTime: 30_000 }));
  const names = [...new Set((list.data?.rows ?? []).map((r) => r.name))];
  const [draftPatterns, setDraftPatterns] = useState<string | null>(null);
  if (q.error) return <p className="error-text">{q.error.message}</p>;
  if (!q.data) return <p className="muted">Loading policies…</p>;
  const p = q.data.policy;

  const onForm = (e: React.FormEvent<HTMLFormElement>, make: (f: FormData) => PolicyChange) => {
    e.preventDefault();
    const form = e.currentTarget;
    apply(make(new FormData(form)));
    form.reset();
  };
  const splitList = (s: string) => s.split(/[\s,]+/).map((x) => x.trim()).filter(Boolean);

  return (
    <div className="space-y-6">
      <CatalogNames names={names} />
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

      <Section label="Approvals required" title="Approval required">
        <p className="muted text-sm">A skill that needs approval is listed everywhere but stays inactive until an admin approves its exact version. Enterprise skills are exempt.</p>
        <PolicyToggle label="Require approval for skills with scripts" checked={p.requireApprovalForScripts} onChange={(on) => apply({ op: "setRequireApproval", scripts: on })} />
        <PolicyToggle label="Require approval for project skills" checked={p.requireApprovalForProject} onChange={(on) => apply({ op: "setRequireApproval", project: on })} />
        <PolicyToggle label="A skill's name must match its folder" checked={p.nameMustMatchFolder} onChange={(on) => apply({ op: "setNameMustMatchFolder", on })}>
          A skill&apos;s name must match its folder (otherwise such a skill loads under its name with a warning)
        </PolicyToggle>
      </Section>

      <section className="card space-y-2" aria-label="Personal skills">
        <h2 className="font-semibold">Personal skills</h2>
        <p className="muted text-sm">Administrators can always open any user&apos;s personal skills to review them, read-only; each visit is in the audit log.</p>
        <PolicyToggle label="Administrators may change users' personal skills" checked={p.adminsEditPersonal} onChange={(allow) => apply({ op: "setAdminsEditPersonal", allow })}>
          Administrators may also change users&apos; personal skills
        </PolicyToggle>
      </section>

      <ApprovalsQueue />

      <Section label="Blocked names" title="Blocked everywhere">
        <p className="muted text-sm">A blocked name is never active, in any layer, for any agent.</p>
        <form className="flex gap-2" onSubmit={(e) => onForm(e, (f) => ({ op: "block", name: String(f.get("name") ?? "") }))}>
          <input className="input max-w-xs" name="name" placeholder="skill-name" aria-label="Skill name to block" list="catalog-names" autoComplete="off" required />
          <button className="btn btn-danger" type="submit">
            Block
          </button>
        </form>
        <ul className="flex flex-wrap gap-2" data-testid="blocked-names">
          {p.blockedNames.length === 0 && <li className="muted text-sm">No name is blocked.</li>}
          {p.blockedNames.map((n) => (
            <li key={n} className="badge gap-2 bg-rose-100 text-rose-900 dark:bg-rose-950/60 dark:text-rose-200">
              ⊗ {n}
              <button className="underline" onClick={() => apply({ op: "unblock", name: n })} aria-label={`Unblock ${n}`}>
                unblock
              </button>
            </li>
          ))}
        </ul>
      </Section>

      <Section label="Disabled definitions" title="Disabled in one layer">
        <p className="muted text-sm">Switch off one layer’s definition of a name; the next layer’s definition takes its place.</p>
        <form
          className="grid gap-2 sm:grid-cols-4"
          onSubmit={(e) =>
            onForm(e, (f) => ({
              op: "disable",
              name: String(f.get("name") ?? ""),
              layer: String(f.get("layer")) as (typeof LAYERS)[number],
              plugin: String(f.get("plugin") ?? "").trim() || undefined,
            }))
          }
        >
          <input className="input" name="name" placeholder="skill-name" aria-label="Skill name to disable" list="catalog-names" autoComplete="off" required />
          <select className="input" name="layer" aria-label="Layer" defaultValue="project">
            {LAYERS.map((l) => (
              <option key={l}>{l}</option>
            ))}
          </select>
          <input className="input" name="plugin" placeholder="plugin (plugin layer only)" aria-label="Plugin" />
          <button className="btn" type="submit">
            Disable
          </button>
        </form>
        <ul className="space-y-1 text-sm" data-testid="disabled-definitions">
          {p.disabled.length === 0 && <li className="muted">Nothing is disabled.</li>}
          {p.disabled.map((d) => (
            <li key={`${d.name}-${d.layer}-${d.plugin ?? ""}`} className="flex items-center gap-2">
              <span className="badge bg-amber-100 text-amber-900 dark:bg-amber-950/60 dark:text-amber-200">⊘ disabled</span>
              <span className="font-medium">{d.name}</span> in the {d.layer} layer{d.plugin ? ` (plugin ${d.plugin})` : ""}
              <button className="btn py-0.5" onClick={() => apply({ op: "enable", name: d.name, layer: d.layer, plugin: d.plugin })}>
                Enable
              </button>
            </li>
          ))}
        </ul>
      </Section>

      <Section label="Allowlist" title="Allowlist mode">
        <p className="muted text-sm">
          {p.allowlist ? (
            <>
              <strong>On:</strong> only the {p.allowlist.length} listed names may be active.
            </>
          ) : (
            <>
              <strong>Off:</strong> every name may be active unless blocked.
            </>
          )}
        </p>
        <form
          className="space-y-2"
          onSubmit={(e) => {
            e.preventDefault();
            const names = splitList(String(new FormData(e.currentTarget).get("names") ?? ""));
            // An empty allowlist switches every skill off: ask before doing that.
            if (!names.length && !window.confirm("An empty allowlist means no skill may be active anywhere. Continue?")) return;
            apply({ op: "setAllowlist", names });
          }}
        >
          <ListTextarea name="names" values={p.allowlist ?? []} placeholder="one name per line" label="Allowlisted names" />
          <div className="flex gap-2">
            <button className="btn btn-primary" type="submit">
              {p.allowlist ? "Save allowlist" : "Turn on with these names"}
            </button>
            {p.allowlist && (
              <button className="btn" type="button" onClick={() => apply({ op: "setAllowlist", names: null })}>
                Turn allowlist mode off
              </button>
            )}
          </div>
        </form>
      </Section>

      <Section label="Forbidden names" title="Names that may not be used">
        <p className="muted text-sm">
          A name containing any of these words (or matching a <code>/regular expression/</code>) is blocked. Vendor words
          (claude, anthropic, gemini, openai) are a common choice: some vendors refuse skills whose names carry them.
        </p>
        <form
          className="space-y-2"
          onSubmit={(e) => {
            e.preventDefault();
            apply({ op: "setForbiddenPatterns", patterns: splitList(String(new FormData(e.currentTarget).get("patterns") ?? "")) });
          }}
        >
          <ListTextarea name="patterns" values={p.forbiddenNamePatterns ?? []} placeholder="one word or /pattern/ per line" label="Forbidden name patterns" onChange={setDraftPatterns} />
          <PatternPreview patterns={splitList(draftPatterns ?? (p.forbiddenNamePatterns ?? []).join("\n"))} names={names} />
          <div className="flex gap-2">
            <button className="btn btn-primary" type="submit">
              Save patterns
            </button>
            <button
              className="btn"
              type="button"
              onClick={() => apply({ op: "setForbiddenPatterns", patterns: [...new Set([...(p.forbiddenNamePatterns ?? []), ...q.data.vendorWordPatterns])] })}
            >
              Add vendor words ({q.data.vendorWordPatterns.join(", ")})
            </button>
          </div>
        </form>
      </Section>
    </div>
  );
}
