"use client";
// The Details form: one field per frontmatter property, for authors who do not write YAML. Every change is an
// edit of the same SKILL.md buffer the text view shows (frontmatter-document.ts edits the YAML as a document, so
// comments, key order and unknown keys stay), and every text edit shows here at once.
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTRPC } from "~/components/providers/trpc";
import { readFrontmatter, setFrontmatterFields, type FieldValue } from "~/server/runtime/skill/frontmatter-document";
import { nameProblems, RESERVED_NAME_WORDS, reservedWordIn } from "~/server/runtime/skill/name-rule";
import { inScriptFolder } from "~/server/domain/skill-protocol";
import type { SkillInfo, SkillRef } from "../types";
import { DescriptionField } from "./description-field";
import { DetailsLists } from "./details-lists";
import { FORM_KEYS, formValues } from "./frontmatter-values";

export interface DetailsFormProps {
  skillRef: SkillRef;
  text: string;
  onText: (text: string) => void;
  canWrite: boolean;
  files: SkillInfo["files"];
  /** The policy allows reserved words in names (allowReservedNames), as the problem list then does. */
  reservedNamesAllowed: boolean;
}

export function DetailsForm({ skillRef, text, onText, canWrite, files, reservedNamesAllowed }: DetailsFormProps) {
  const trpc = useTRPC();
  const vocab = useQuery(trpc.skill.vocabulary.queryOptions(undefined, { staleTime: Infinity }));
  const [error, setError] = useState<string | null>(null);
  const read = useMemo(() => readFrontmatter(text), [text]);
  if (!read.ok && !read.missing) {
    return (
      <p className="error-text text-sm" data-testid="details-error">
        {read.error} Fix it in the text view; the form comes back when the frontmatter reads again.
      </p>
    );
  }
  const data = read.ok ? read.data : {};
  const v = formValues(data);
  const disabled = !canWrite;
  const set = (path: string[], value: FieldValue) => {
    try {
      onText(setFrontmatterFields(text, [{ path, value }]));
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  // The console names folders in ASCII: a suggestion it would then refuse is no suggestion (as in New skill).
  const problems = nameProblems(v.name, { ascii: true });
  const folder = v.name && problems.length === 0 && v.name.normalize("NFKC") !== skillRef.skill.normalize("NFKC");
  const others = (read.ok ? read.keys : []).filter((k) => !FORM_KEYS.has(k));
  const scripts = files.filter((f) => f.type === "file" && (inScriptFolder(f.path) || f.executable)).map((f) => f.path);
  // The console checks names by the omniforge rules, which reserve these words (seed 003) unless the policy allows them.
  const reserved = v.name && !reservedNamesAllowed ? reservedWordIn(v.name) : null;
  const input = (label: string, key: string, value: string, extra?: React.ReactNode) => (
    <label className="block text-sm">
      <span className="muted text-xs">{label}</span>
      <input className="input" aria-label={label} value={value} disabled={disabled} onChange={(e) => set([key], e.target.value)} />
      {extra}
    </label>
  );

  return (
    <form className="@container space-y-3" aria-label="Details" data-testid="details-form" onSubmit={(e) => e.preventDefault()}>
      {read.ok ? null : <p className="muted text-xs">SKILL.md has no frontmatter yet: filling in a field below adds it.</p>}
      {error && (
        <p className="error-text text-xs" data-testid="details-error">
          {error}
        </p>
      )}
      <label className="block text-sm">
        <span className="muted text-xs">Name: lowercase letters, digits and single hyphens, the same as the folder</span>
        <input className="input font-mono" aria-label="Name" value={v.name} disabled={disabled} onChange={(e) => set(["name"], e.target.value)} />
        <span className="mt-1 block text-xs" data-testid="name-rule">
          {problems.map((p) => (
            <span key={p.code} className={`block ${p.severity === "error" ? "text-red-700 dark:text-red-300" : "muted"}`}>
              {p.message}
            </span>
          ))}
          {reserved && (
            <span className="block text-red-700 dark:text-red-300">
              “{reserved}” is a reserved word: names must not contain {RESERVED_NAME_WORDS.join(", ")}.
            </span>
          )}
          {folder && <span className="block text-amber-700 dark:text-amber-300">The folder is “{skillRef.skill}”: agents find the skill under its folder name, so keep them the same.</span>}
        </span>
      </label>
      <DescriptionField skillRef={skillRef} value={v.description} disabled={disabled} onChange={(d) => set(["description"], d)} />
      <div className="grid gap-3 @lg:grid-cols-2">
        {input("License", "license", v.license)}
        {input("Compatibility", "compatibility", v.compatibility)}
        <label className="block text-sm">
          <span className="muted text-xs">Context</span>
          <select className="input" aria-label="Context" value={v.context} disabled={disabled} onChange={(e) => set(["context"], e.target.value)}>
            <option value="">(default)</option>
            {(vocab.data?.contextValues ?? ["inherit", "fork"]).map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        {input("Priority", "priority", v.priority)}
      </div>
      <DetailsLists values={v} tools={vocab.data?.tools ?? []} disabled={disabled} set={set} />
      <div className="grid gap-3 @lg:grid-cols-2">
        {(["pre", "post"] as const).map((h) => (
          <label key={h} className="block text-sm">
            <span className="muted text-xs">{h === "pre" ? "Hook before the skill runs" : "Hook after the skill runs"}</span>
            <select className="input font-mono" aria-label={`${h}-hook`} value={v[h]} disabled={disabled} onChange={(e) => set(["hooks", h], e.target.value)}>
              <option value="">(none)</option>
              {[...new Set([...scripts, ...(v[h] ? [v[h]] : [])])].map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
      {v.execution && (
        <p className="muted text-xs" data-testid="execution">
          Execution: {v.execution.map((e) => `${e.key}: ${e.value}`).join(" · ") || "(empty)"}. Scripts here always run in the sandbox with no network
          and only the skill folder and the scratch; an ask for more is not granted (edit it in the text).
        </p>
      )}
      {others.length > 0 && (
        <p className="muted text-xs" data-testid="other-fields">
          Also in the frontmatter, kept as written (edit them in the text): {others.join(", ")}.
        </p>
      )}
    </form>
  );
}
