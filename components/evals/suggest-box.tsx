"use client";
// "Suggest a better description" (model providers only): the loop runs on the server, the author sees the old and
// new description word by word with their train/test scores, and applies it with one click (a normal save).
import { diffWords } from "diff";
import { useState } from "react";
import { useTRPCClient } from "~/components/providers/trpc";
import type { SkillRef } from "./types";
import { count } from "~/server/domain/plural";

type Suggestion = Awaited<ReturnType<ReturnType<typeof useTRPCClient>["evals"]["suggest"]["mutate"]>>;
const pct = (n: number) => `${Math.round(n * 100)}%`;

export function SuggestBox({ skillRef, provider, mode, canWrite, onApplied }: { skillRef: SkillRef; provider: string; mode: "tool" | "prompt" | "orchestrated"; canWrite: boolean; onApplied: () => void }) {
  const client = useTRPCClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [s, setS] = useState<Suggestion | null>(null);
  const [applied, setApplied] = useState(false);
  if (provider === "offline") {
    return <p className="muted text-sm">Suggest a better description: choose a model provider (set OPENAI_API_KEY or ANTHROPIC_API_KEY for the console); the offline router cannot write one.</p>;
  }
  async function suggest() {
    setBusy(true);
    setError(null);
    setApplied(false);
    try {
      setS(await client.evals.suggest.mutate({ ref: skillRef, provider: provider as "openai", mode }));
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
        </div>
      )}
    </section>
  );
}
