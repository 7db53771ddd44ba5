"use client";
// The description: what the skill does and when to use it. A meter against the format's limit, and the doctor's
// hints about how agents will choose the skill (from the last save: the doctor reads the saved files).
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "~/components/providers/trpc";
import { FORMAT_LIMITS } from "~/server/domain/vocabulary";
import { codePointLength } from "~/server/runtime/skill/field-values";
import type { SkillRef } from "../types";

export function DescriptionField({ skillRef, value, onChange, disabled }: { skillRef: SkillRef; value: string; onChange: (v: string) => void; disabled?: boolean }) {
  const trpc = useTRPC();
  const doctor = useQuery(trpc.doctor.skill.queryOptions({ ref: skillRef }, { staleTime: 0 }));
  const hints = (doctor.data?.findings ?? []).filter((f) => f.file === "SKILL.md" && !f.silenced && /^(description|routing)\./.test(f.code));
  const length = codePointLength(value);
  const over = length > FORMAT_LIMITS.descriptionChars;
  return (
    <label className="block text-sm">
      <span className="muted text-xs">Description: what the skill does, and when an agent should use it</span>
      <textarea className="input min-h-24 resize-y" aria-label="Description" value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)} />
      <span className="mt-1 flex items-center gap-2 text-xs" data-testid="description-meter">
        <span className="h-1.5 flex-1 overflow-hidden rounded bg-zinc-200 dark:bg-zinc-800">
          <span className={`block h-full ${over ? "bg-red-600" : "bg-indigo-500"}`} style={{ width: `${Math.min(100, (length / FORMAT_LIMITS.descriptionChars) * 100)}%` }} />
        </span>
        <span className={over ? "text-red-700 dark:text-red-300" : "muted"}>
          {length} / {FORMAT_LIMITS.descriptionChars}
        </span>
      </span>
      {hints.length > 0 && (
        <ul className="mt-1 space-y-1 text-xs" data-testid="description-hints">
          {hints.map((h) => (
            <li key={`${h.code}:${h.message}`} className="rounded bg-amber-50 px-2 py-1 text-amber-900 dark:bg-amber-950/40 dark:text-amber-200">
              {h.message} <span className="muted">{h.fix}</span>
            </li>
          ))}
        </ul>
      )}
    </label>
  );
}
