"use client";
// "Agent view": what each disclosure mode sends a model about this skill (the listing entry and the activation
// result, with token counts), produced on the server by the runtime code the agent itself runs. It shows the
// SKILL.md as saved, since that is what an agent loads; unsaved edits are pointed out.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/components/providers/trpc";
import { count } from "~/server/domain/plural";
import { AgentPanel } from "./side-panel";
import type { LiveCheckResult, SkillRef } from "./types";
import { DISCLOSURE_MODES } from "~/server/domain/vocabulary";

const MODE_LABEL: Record<(typeof DISCLOSURE_MODES)[number], string> = { tool: "Tool", prompt: "Prompt", orchestrated: "Orchestrated" };

function Block({ title, note, text, tokens, testId }: { title: string; note: string; text: string; tokens?: number; testId: string }) {
  return (
    <div>
      <h3 className="font-semibold">
        {title}
        {tokens !== undefined && (
          <span className="muted ml-2 text-xs font-normal" data-testid={`${testId}-tokens`}>
            ~{count(tokens, "token")}
          </span>
        )}
      </h3>
      <p className="muted text-xs">{note}</p>
      <pre className="mt-1 max-h-64 overflow-auto rounded bg-zinc-100 p-2 text-xs whitespace-pre-wrap dark:bg-zinc-800" data-testid={testId}>
        {text}
      </pre>
    </div>
  );
}

export function DisclosurePanel({ skillRef, unsaved }: { skillRef: SkillRef; unsaved: boolean }) {
  const trpc = useTRPC();
  const [mode, setMode] = useState<(typeof DISCLOSURE_MODES)[number]>("tool");
  const q = useQuery(trpc.skill.disclosure.queryOptions({ ref: skillRef }, { staleTime: 0 }));
  if (q.error) return <p className="error-text text-sm">{q.error.message}</p>;
  if (!q.data) return <p className="muted text-sm">Loading what the agent sees…</p>;
  if (!q.data.modes) return <p className="error-text text-sm">Not listed: the saved SKILL.md does not load.</p>;
  const m = q.data.modes[mode];
  return (
    <div className="space-y-3 text-sm" data-testid="disclosure">
      <div className="flex items-center gap-1" role="tablist" aria-label="Disclosure mode">
        {DISCLOSURE_MODES.map((k) => (
          <button key={k} role="tab" aria-selected={mode === k} className={`btn px-2 py-1 text-xs ${mode === k ? "btn-primary" : ""}`} onClick={() => setMode(k)}>
            {MODE_LABEL[k]} mode
          </button>
        ))}
      </div>
      {unsaved && <p className="muted text-xs">Showing the saved SKILL.md: save to see your edits here.</p>}
      <Block title="Listing" note={`In the ${m.listingIn}, before any skill is active.`} text={m.listing} tokens={m.tokens.listing} testId="disclosure-listing" />
      <Block
        title="Activation"
        note={`What the model gets back after ${m.activatedBy}.${m.injected ? " Counted with the injected block below." : ""}`}
        text={m.activation}
        tokens={m.tokens.activation}
        testId="disclosure-activation"
      />
      {m.injected && <Block title="Injected instructions" note="Added to the instructions of every later call while the skill is loaded." text={m.injected} testId="disclosure-injected" />}
    </div>
  );
}

/** The "Agent view" tab: what each mode sends (saved skill), then the stage costs of the text being edited. */
export function AgentTab({ skillRef, unsaved, check }: { skillRef: SkillRef; unsaved: boolean; check: LiveCheckResult | null }) {
  return (
    <div className="space-y-4">
      <DisclosurePanel skillRef={skillRef} unsaved={unsaved} />
      <AgentPanel check={check} />
    </div>
  );
}
