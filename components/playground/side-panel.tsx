"use client";
// The side panel: the available skills exactly as the agent saw them (the listing of the turn in focus, or a
// preview before the first turn), the active skills, the context meter and the mode comparison.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTRPC } from "~/components/providers/trpc";
import type { ShownEvent } from "./types";
import { ListingDetails } from "./listing-details";
import { ContextMeter, Legend, ModeComparison, type ComparedRun } from "./meter";
import { useFullListing } from "./turn-details";
import { activatedIn, activeStack, costsOf, listingOf } from "./steps-model";

export interface FocusTurn {
  turn: number;
  request: string;
  events: ShownEvent[];
  live: boolean;
}

export function SidePanel({
  sessionId,
  mode,
  focus,
  compared,
  previewRequest = null,
  onEndPreview,
}: {
  sessionId: string;
  mode: string;
  focus: FocusTurn | null;
  compared: ComparedRun[];
  /** A request typed but not sent: the panel shows the listing the agent would get for it. */
  previewRequest?: string | null;
  onEndPreview?: () => void;
}) {
  const trpc = useTRPC();
  const previewing = previewRequest !== null;
  const seen = focus && !previewing ? listingOf(focus.events) : null;
  const preview = useQuery({
    ...trpc.playground.listing.queryOptions({ sessionId, ...(seen ? { mode: seen.mode as "tool" | "prompt" | "orchestrated" } : {}), ...(previewing ? { request: previewRequest } : {}) }),
    placeholderData: keepPreviousData,
  });
  // The panel shows the text of the turn in focus at once: one turn's listing, read when the focus moves to it.
  const source = focus ? { sessionId, turn: focus.turn } : undefined;
  const seenFull = useFullListing(seen, source, true);
  const listing = seen ?? (preview.data ? { ...preview.data, mode } : null);
  const text = seen ? (seenFull.full?.text ?? (seenFull.error ? `Could not load the listing: ${seenFull.error}` : "Loading…")) : (preview.data?.text ?? "…");
  const matches = previewing ? (preview.data?.matches ?? []) : [];
  const everything = preview.data?.everything;
  const costs = focus ? costsOf(focus.events) : [];
  const worst = costs.length ? Math.max(...costs.map((c) => c.stage1.tokens + c.stage2.tokens + c.stage3.tokens)) : null;
  const stack = focus ? (focus.live ? activeStack(focus.events) : activatedIn(focus.events)) : [];
  return (
    <aside className="space-y-4 text-sm" aria-label="Turn details">
      <section className="card space-y-1">
        <h2 className="font-semibold">Available skills</h2>
        <p className="muted text-xs">
          {seen ? `Exactly as the agent saw them in turn ${focus!.turn}` : previewing ? "Preview for the request you are typing" : "Preview: what the agent will see"} ({listing?.mode ?? mode} mode
          {listing ? `, ${listing.listed}/${listing.total} listed, ${listing.chars} chars, ${listing.tokens} tokens, budget ${listing.budgetChars}` : ""})
        </p>
        {previewing && (
          <div className="space-y-1 rounded border border-indigo-200 p-2 dark:border-indigo-900" data-testid="listing-preview">
            <div className="flex items-center gap-2">
              <span className="text-xs font-medium">Best matches for “{previewRequest}”</span>
              <button type="button" className="btn ml-auto px-2 py-0 text-xs" onClick={onEndPreview}>
                {focus ? `Back to turn ${focus.turn}` : "Close preview"}
              </button>
            </div>
            {preview.data?.routing.map((n) => (
              <p key={n} className="text-xs text-amber-700 dark:text-amber-300">
                {n}
              </p>
            ))}
            {preview.data?.abstain && <p className="text-xs text-amber-700 dark:text-amber-300">No skill clearly serves it: {preview.data.abstainReason}</p>}
            <ol className="space-y-0.5 text-xs" data-testid="preview-matches">
              {matches.map((m) => (
                <li key={m.name} title={m.why}>
                  <span className="font-mono">{m.name}</span> <span className="muted">score {m.score}</span>
                </li>
              ))}
              {!matches.length && <li className="muted">no skill has any word of it</li>}
            </ol>
          </div>
        )}
        {listing && <ListingDetails listing={(seen && seenFull.full) || listing} source={seen ? source : undefined} />}
        <pre className="max-h-72 overflow-auto whitespace-pre-wrap break-words rounded bg-zinc-50 p-2 font-mono text-xs dark:bg-zinc-950" data-testid="side-listing">
          {text}
        </pre>
      </section>
      <section className="card space-y-1">
        <h2 className="font-semibold">Active skills</h2>
        <p className="muted text-xs">
          {focus?.live ? "The stack now (top first)" : focus ? `Activated in turn ${focus.turn} (deactivated when it ended)` : "No turn yet"}
        </p>
        <ol className="space-y-1" data-testid="active-skills">
          {[...stack].reverse().map((s) => (
            <li key={s} className="badge bg-indigo-100 text-indigo-900 dark:bg-indigo-900/50 dark:text-indigo-100">
              {s}
            </li>
          ))}
          {!stack.length && <li className="muted text-xs">none</li>}
        </ol>
      </section>
      <section className="card space-y-2">
        <h2 className="font-semibold">Context meter{focus ? ` (turn ${focus.turn})` : ""}</h2>
        <Legend />
        <ContextMeter costs={costs} />
        {everything && (
          <p className="muted text-xs" data-testid="disclosure-saving">
            Without progressive disclosure every SKILL.md ({everything.counted} of {everything.skills}) would be in every call: {everything.chars} chars, ~{everything.tokens} tokens.
            {worst !== null ? ` Here the skill stages took at most ${worst} tokens in one call.` : ` The listing alone is ${listing?.tokens ?? 0} tokens.`}
          </p>
        )}
      </section>
      <section className="card space-y-2">
        <h2 className="font-semibold">Same request, other modes</h2>
        <ModeComparison runs={compared} />
      </section>
    </aside>
  );
}
