"use client";
// One audit event read as a person reads it (issue 41 item 10): its fields as labelled rows, the actor, skill, outcome
// and session as links that narrow the audit to them (the skill also opens in the editor), the event's own details
// one row per key, and the stored record as JSON behind "Raw" for whoever needs the hashes or a copy.
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { useState } from "react";
import type { AppRouter } from "~/server/api/root";
import { Time } from "~/components/shell/time";
import { editorHref } from "~/components/skills/links";
import { outcomeClass, rowSource, sourceName } from "./event-format";

export type AuditRow = inferRouterOutputs<AppRouter>["audit"]["list"]["events"][number];
export type PickKey = "type" | "skill" | "user" | "session" | "source" | "outcome";

const linkClass = "text-left text-indigo-700 underline dark:text-indigo-300";

/** A detail's value as text: strings as they are, anything else as compact JSON. */
function valueText(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}

export function EventDetails({ e, onPick }: { e: AuditRow; onPick: (key: PickKey, value: string) => void }) {
  const [raw, setRaw] = useState(false);
  const pick = (key: PickKey, value: string, text: string, title: string) => (
    <button type="button" className={linkClass} title={title} onClick={() => onPick(key, value)}>
      {text}
    </button>
  );
  // The editor opens the shared layers' skills; a personal skill is its owner's, found through the audit instead.
  const editable = e.skill && (e.layer === "project" || e.layer === "enterprise");
  const details = Object.entries((e.details ?? {}) as Record<string, unknown>);
  const rows: [string, React.ReactNode][] = [
    ["When", <Time key="t" at={e.at} />],
    ["Event", pick("type", e.type, e.type, `Only ${e.type} events`)],
    ["Outcome", e.outcome ? <button type="button" className={`badge ${outcomeClass(e.outcome)}`} title={`Only ${e.outcome} events`} onClick={() => onPick("outcome", e.outcome!)}>{e.outcome}</button> : null],
    ["Actor", e.actorId ? pick("user", e.actorId, e.actorEmail ?? e.actorId, "Only this user's events") : null],
    [
      "Skill",
      e.skill ? (
        <span className="flex flex-wrap gap-3">
          {pick("skill", e.skill, e.skill, `Only events of ${e.skill}`)}
          {editable && (
            <Link className={linkClass} href={editorHref({ layer: e.layer as "project" | "enterprise", skill: e.skill! })}>
              Open in the editor
            </Link>
          )}
        </span>
      ) : null,
    ],
    ["Layer", e.layer],
    ["Tool", e.tool],
    ["Model", [e.model, e.mode && `${e.mode} mode`].filter(Boolean).join(" · ") || null],
    ["Session", e.sessionId ? pick("session", e.sessionId, e.sessionId, "Only this session's events") : null],
    ["Source", pick("source", rowSource(e), [sourceName(rowSource(e)), e.sourceVersion, e.sourceHost, e.sourceUser].filter(Boolean).join(" · "), "Only events from this source")],
    ["Duration", e.durationMs !== null && e.durationMs !== undefined ? `${e.durationMs} ms` : null],
    ["Digest", e.digest ? <code title={e.digest}>{e.digest.slice(0, 12)}</code> : null],
  ];
  return (
    <div className="space-y-2 text-sm" data-testid="audit-event">
      <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1">
        {rows
          .filter(([, v]) => v !== null && v !== undefined && v !== "")
          .map(([label, v]) => (
            <div key={label} className="contents" data-testid={`audit-field-${label.toLowerCase()}`}>
              <dt className="muted text-xs leading-5">{label}</dt>
              <dd className="break-words">{v}</dd>
            </div>
          ))}
        {details.map(([k, v]) => (
          <div key={`d-${k}`} className="contents" data-testid={`audit-detail-${k}`}>
            <dt className="muted font-mono text-xs leading-5">{k}</dt>
            <dd className="font-mono text-xs leading-5 break-all whitespace-pre-wrap">{valueText(v)}</dd>
          </div>
        ))}
      </dl>
      <button type="button" className="btn px-2 py-0.5 text-xs" aria-expanded={raw} onClick={() => setRaw(!raw)}>
        Raw
      </button>
      {raw && (
        <pre className="overflow-x-auto text-xs whitespace-pre-wrap break-all" data-testid="audit-details">
          {JSON.stringify({ ...e, at: new Date(e.at).toISOString() }, null, 2)}
        </pre>
      )}
    </div>
  );
}
