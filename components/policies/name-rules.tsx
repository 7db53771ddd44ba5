"use client";
// The policies page's name rules, one section each: names blocked everywhere, definitions disabled in one layer,
// the allowlist, the forbidden name patterns and the allowance of reserved words. Each change goes through the
// page's one policy mutation.
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import type { AppRouter } from "~/server/api/root";
import { LAYERS } from "~/server/domain/vocabulary";
import type { PolicyChange } from "./types";
import { PatternPreview } from "./pattern-preview";
import { ListForm, PolicyToggle, splitList } from "./policy-fields";
import { RESERVED_NAME_WORDS } from "~/server/runtime/skill/name-rule";
import { Section } from "~/components/shell/section";

interface Props {
  p: inferRouterOutputs<AppRouter>["policy"]["get"]["policy"];
  apply: (c: PolicyChange) => void;
}

/** The last change's names that match no skill today, as the server worded them, and which kind of rule it was. */
export type Unmatched = { op: PolicyChange["op"]; lines: string[] } | null;

/** Said under the form that made the rule (issue 41 item 7): kept, but matching nothing today. */
function UnmatchedLines({ unmatched, op }: { unmatched: Unmatched; op: PolicyChange["op"] }) {
  if (unmatched?.op !== op) return null;
  return (
    <ul className="space-y-0.5 text-sm text-amber-800 dark:text-amber-200" role="status" data-testid="policy-unmatched">
      {unmatched.lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}

/**
 * Proposes a small form's change. The form keeps what was typed (a Cancel in the preview loses nothing); it is
 * keyed by the stored list, so it empties for the next entry once the change is applied.
 */
const onForm = (apply: Props["apply"], e: React.FormEvent<HTMLFormElement>, make: (f: FormData) => PolicyChange) => {
  e.preventDefault();
  apply(make(new FormData(e.currentTarget)));
};

export function BlockedNames({ p, apply, unmatched }: Props & { unmatched: Unmatched }) {
  return (
    <Section label="Blocked names" title="Blocked everywhere" hint="A blocked name is never active, in any layer, for any agent.">
      <form key={p.blockedNames.join("\n")} className="flex gap-2" onSubmit={(e) => onForm(apply, e, (f) => ({ op: "block", name: String(f.get("name") ?? "") }))}>
        <input className="input max-w-xs" name="name" placeholder="skill-name" aria-label="Skill name to block" list="catalog-names" autoComplete="off" required />
        <button className="btn btn-danger" type="submit">
          Block
        </button>
      </form>
      <UnmatchedLines unmatched={unmatched} op="block" />
      <ul className="flex flex-wrap gap-2" data-testid="blocked-names">
        {p.blockedNames.length === 0 && <li className="muted text-sm">No name is blocked.</li>}
        {p.blockedNames.map((n) => (
          // A name may be long (any name a skill loads with): it breaks inside the badge rather than widen the page.
          <li key={n} className="badge max-w-full gap-2 bg-rose-100 text-rose-900 dark:bg-rose-950/60 dark:text-rose-200">
            <span className="min-w-0 break-all">⊗ {n}</span>
            <button className="underline" onClick={() => apply({ op: "unblock", name: n })} aria-label={`Unblock ${n}`}>
              unblock
            </button>
          </li>
        ))}
      </ul>
    </Section>
  );
}

export function DisabledDefinitions({ p, apply, unmatched }: Props & { unmatched: Unmatched }) {
  return (
    <Section label="Disabled definitions" title="Disabled in one layer" hint="Switch off one layer’s definition of a name; the next layer’s definition takes its place.">
      <form
        key={JSON.stringify(p.disabled)}
        className="grid gap-2 sm:grid-cols-4"
        onSubmit={(e) =>
          onForm(apply, e, (f) => ({
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
        <button className="btn btn-danger justify-self-start" type="submit">
          Disable
        </button>
      </form>
      <UnmatchedLines unmatched={unmatched} op="disable" />
      <ul className="space-y-1 text-sm" data-testid="disabled-definitions">
        {p.disabled.length === 0 && <li className="muted">Nothing is disabled.</li>}
        {p.disabled.map((d) => (
          <li key={`${d.name}-${d.layer}-${d.plugin ?? ""}`} className="flex items-center gap-2">
            <span className="badge bg-amber-100 text-amber-900 dark:bg-amber-950/60 dark:text-amber-200">⊘ disabled</span>
            <span className="min-w-0 font-medium break-all">{d.name}</span> in the {d.layer} layer{d.plugin ? ` (plugin ${d.plugin})` : ""}
            <button className="btn py-0.5" onClick={() => apply({ op: "enable", name: d.name, layer: d.layer, plugin: d.plugin })}>
              Enable
            </button>
          </li>
        ))}
      </ul>
    </Section>
  );
}

export function Allowlist({ p, apply, unmatched }: Props & { unmatched: Unmatched }) {
  const state = p.allowlist ? (
    <>
      <strong>On:</strong> only the {p.allowlist.length} listed names may be active.
    </>
  ) : (
    <>
      <strong>Off:</strong> every name may be active unless blocked.
    </>
  );
  const save = (names: string[]) => {
    // An empty allowlist switches every skill off: ask before doing that.
    if (!names.length && !window.confirm("An empty allowlist means no skill may be active anywhere. Continue?")) return;
    apply({ op: "setAllowlist", names });
  };
  return (
    <Section label="Allowlist" title="Allowlist mode" hint={state}>
      <ListForm name="names" values={p.allowlist ?? []} placeholder="one name per line" label="Allowlisted names" onSave={save}>
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
      </ListForm>
      <UnmatchedLines unmatched={unmatched} op="setAllowlist" />
    </Section>
  );
}

export function ForbiddenNames({ p, apply, names, vendorWords }: Props & { names: string[]; vendorWords: readonly string[] }) {
  const [draftPatterns, setDraftPatterns] = useState<string | null>(null);
  const save = (patterns: string[]) => apply({ op: "setForbiddenPatterns", patterns });
  const hint = (
    <>
      A name containing any of these words (or matching a <code>/regular expression/</code>) is blocked. Vendor words
      (claude, anthropic, gemini, openai) are a common choice: some vendors refuse skills whose names carry them.
      Expressions are matched without backtracking, so no name can stall a listing: lookarounds and backreferences are
      refused, and a name is matched on its first 128 characters.
    </>
  );
  return (
    <Section label="Forbidden names" title="Names that may not be used" hint={hint}>
      <PolicyToggle label="Allow reserved words in names" checked={p.allowReservedNames} onChange={(allow) => apply({ op: "setAllowReservedNames", allow })}>
        Allow names holding a reserved word ({RESERVED_NAME_WORDS.join(", ")}): otherwise the console reports them as an error
        (the skill still loads)
      </PolicyToggle>
      <ListForm name="patterns" values={p.forbiddenNamePatterns ?? []} placeholder="one word or /pattern/ per line" label="Forbidden name patterns" onChange={setDraftPatterns} onSave={save}>
        <PatternPreview patterns={splitList(draftPatterns ?? (p.forbiddenNamePatterns ?? []).join("\n"))} names={names} />
        <div className="flex gap-2">
          <button className="btn btn-primary" type="submit">
            Save patterns
          </button>
          <button
            className="btn"
            type="button"
            onClick={() => apply({ op: "setForbiddenPatterns", patterns: [...new Set([...(p.forbiddenNamePatterns ?? []), ...vendorWords])] })}
          >
            Add vendor words ({vendorWords.join(", ")})
          </button>
        </div>
      </ListForm>
    </Section>
  );
}
