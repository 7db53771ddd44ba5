"use client";
// "Suggest a better description": the loop runs on the server (a model writes the proposals, or offline the failing
// queries' words the skill's text supports), the author sees the old and new description word by word with their
// train/test scores and where the one ranking puts the skill for each failing query before and after, and applies it
// with one click (a normal save). Offline, it also says what a model would add.
import { diffWords } from "diff";
import { useState } from "react";
import { useTRPCClient } from "~/components/providers/trpc";
import type { SkillRef } from "./types";
import { DataTable } from "~/components/shell/data-table";
import { count } from "~/server/domain/plural";

type Suggestion = Awaited<ReturnType<ReturnType<typeof useTRPCClient>["evals"]["suggest"]["mutate"]>>;
const pct = (n: number) => `${Math.round(n * 100)}%`;

export function SuggestBox({ skillRef, provider, mode, canWrite, onApplied }: { skillRef: SkillRef; provider: string; mode: "tool" | "prompt" | "orchestrated"; canWrite: boolean; onApplied: () => void }) {
  const client = useTRPCClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [s, setS] = useState<Suggestion | null>(null);
  const [applied, setApplied] = useState(false);
  async function suggest() {
    setBusy(true);
    setError(null);
    setApplied(false);
    try {
      setS(await client.evals.suggest.mutate({ ref: skillRef, provider: provider as "offline", mode }));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }
  async function apply() {
    if (!s) return;
    setBusy(true);
    setError(null);
    try {
      await client.evals.applyDescription.mutate({ ref: skillRef, description: s.best.description, baseDigest: s.skillDigest });
      setApplied(true);
      onApplied();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className="card space-y-2" aria-label="Suggest a better description">
      <div className="flex items-center gap-2">
        <h2 className="font-semibold">Description</h2>
        <button className="btn" onClick={() => void suggest()} disabled={busy}>
          {busy && !s ? "Suggesting… (runs the set several times)" : "Suggest a better description"}
        </button>
      </div>
      {error && <p className="error-text">{error}</p>}
      {s && (
        <div className="space-y-2 text-sm" data-testid="suggestion">
          <p>
            Held-out queries: {pct(s.before.test)} → {pct(s.best.test)} · training queries: {pct(s.before.train)} → {pct(s.best.train)} · {count(s.tried.length - 1, "proposal")} tried · split{" "}
            {s.split.train}/{s.split.test}
          </p>
          {s.proposedBy === "words" && (
            <p data-testid="suggestion-source">
              {s.words?.added.length
                ? `Proposed offline: the failing queries' words that this skill's text already uses (${s.words.added.join(", ")}), added to the description.`
                : "Proposed offline: no failing query has a word this skill's text uses and its description lacks, so there was nothing to add."}
            </p>
          )}
          {s.unchanged ? (
            <p className="muted">No proposal did better on the held-out queries than the current description.</p>
          ) : (
            <>
              <p className="rounded border border-zinc-200 p-2 dark:border-zinc-800">
                {diffWords(s.before.description, s.best.description).map((part, i) => (
                  <span key={i} className={part.added ? "bg-emerald-100 dark:bg-emerald-900/50" : part.removed ? "bg-red-100 line-through dark:bg-red-900/50" : ""}>
                    {part.value}
                  </span>
                ))}
              </p>
              {canWrite && !applied && (
                <button className="btn btn-primary" onClick={() => void apply()} disabled={busy}>
                  Apply description
                </button>
              )}
              {applied && <p className="text-emerald-700 dark:text-emerald-300">Applied: SKILL.md saved as a new version. Run the set again to confirm.</p>}
            </>
          )}
          <Rankings rows={s.rankings} changed={!s.unchanged} />
          {s.proposedBy === "words" && <ModelWouldAdd unsupported={s.words?.unsupported ?? []} falseAlarms={s.rankings.filter((r) => !r.should_trigger).map((r) => r.query)} />}
        </div>
      )}
    </section>
  );
}

type Ranking = Suggestion["rankings"][number];

function placeText(p: Ranking["before"]): string {
  if (p.place === null) return "not ranked";
  const at = `#${p.place} (confidence ${pct(p.confidence ?? 0)})`;
  return p.chosen ? `${at}, chosen` : p.place === 1 ? `${at}, too weak to choose` : at;
}

/** The failing queries of the current description, and where the one ranking puts the skill for each, before and after. */
function Rankings({ rows, changed }: { rows: Ranking[]; changed: boolean }) {
  if (!rows.length) return <p className="muted">The current description gets every query right.</p>;
  return (
    <div data-testid="suggestion-rankings">
      <p>
        Where the ranking puts this skill for the {count(rows.length, "query", "queries")} the current description gets wrong{changed ? ", with the current and the proposed description" : ""}:
      </p>
      <DataTable card={false} columns={[{ label: "Query", className: "w-full" }, "Expected", "Current", ...(changed ? ["Proposed"] : [])]}>
        {rows.map((r) => (
          <tr key={r.query} data-testid="ranking-row">
            <td>{r.query}</td>
            <td>{r.should_trigger ? "fire" : "not fire"}</td>
            <td className="whitespace-nowrap">{placeText(r.before)}</td>
            {changed && <td className="whitespace-nowrap">{placeText(r.after)}</td>}
          </tr>
        ))}
      </DataTable>
    </div>
  );
}

/** What the words alone cannot do, said with this set's own words and queries. */
function ModelWouldAdd({ unsupported, falseAlarms }: { unsupported: string[]; falseAlarms: string[] }) {
  const shown = unsupported.slice(0, 8);
  return (
    <p className="muted" data-testid="model-would-add">
      A model would add judgement:{" "}
      {shown.length
        ? `whether this skill is meant for the queries' other words (${shown.join(", ")}${unsupported.length > shown.length ? `, and ${count(unsupported.length - shown.length, "more word")}` : ""}), which its text does not use; `
        : ""}
      a description written as a sentence people would recognise, with the synonyms they use
      {falseAlarms.length ? `; and narrower wording where it fires for ${count(falseAlarms.length, "request")} it should not` : ""}. Choose an OpenAI-compatible or Anthropic provider to ask one.
    </p>
  );
}
