"use client";
// A session's chat: its history (each turn's request, steps and answer, as persisted), the running turn
// streamed live through the follow subscription, send, stop, and "Replay in mode…" for any earlier request.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTRPC, useTRPCClient } from "~/components/providers/trpc";
import type { ShownEvent, StreamEvent } from "./types";
import type { ComparedRun } from "./meter";
import { SidePanel, type FocusTurn } from "./side-panel";
import { answerOf, costsOf, toSteps, totals } from "./steps-model";
import { StepList } from "./steps";
import { useDebounced } from "~/components/skills/use-debounced";
import { DISCLOSURE_MODES, type DisclosureMode } from "~/server/domain/vocabulary";
import type { Message } from "./types";
import { Options } from "~/components/shell/options";

interface TurnView {
  turn: number;
  request: string;
  mode: string;
  replayOf?: number;
  answer?: Message;
}

function groupTurns(messages: Message[]): TurnView[] {
  const byTurn = new Map<number, TurnView>();
  for (const m of messages) {
    const t = byTurn.get(m.turn) ?? { turn: m.turn, request: "", mode: "" };
    if (m.role === "user") {
      t.request = m.content;
      t.mode = m.request?.mode ?? "";
      if (m.request?.replayOf !== undefined) t.replayOf = m.request.replayOf;
    } else t.answer = m;
    byTurn.set(m.turn, t);
  }
  return [...byTurn.values()].sort((a, b) => a.turn - b.turn);
}

function ReplayControl({ turn, current, disabled, onReplay }: { turn: number; current: string; disabled: boolean; onReplay: (mode: DisclosureMode) => void }) {
  const [mode, setMode] = useState<DisclosureMode>((DISCLOSURE_MODES.find((m) => m !== current) ?? "prompt") as DisclosureMode);
  return (
    <span className="flex items-center gap-1 text-xs">
      <select className="input !w-auto !py-0.5 text-xs" aria-label={`Replay mode for turn ${turn}`} value={mode} onChange={(e) => setMode(e.target.value as DisclosureMode)}>
        <Options values={DISCLOSURE_MODES} />
      </select>
      <button className="btn !px-2 !py-0.5 text-xs" disabled={disabled} onClick={() => onReplay(mode)}>
        Replay in mode…
      </button>
    </span>
  );
}

export function Chat({ sessionId }: { sessionId: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const qc = useQueryClient();
  const view = useQuery(trpc.playground.get.queryOptions({ sessionId }));
  const [live, setLive] = useState<{ turn: number; request: string; mode: string; events: StreamEvent[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [draft, setDraft] = useState("");
  // While previewing, the side panel shows the listing for the request being typed (debounced).
  const [previewing, setPreviewing] = useState(false);
  const previewRequest = useDebounced(draft.trim(), 300);
  const [focusTurn, setFocusTurn] = useState<number | null>(null);
  const sub = useRef<{ unsubscribe: () => void } | null>(null);
  const bottom = useRef<HTMLDivElement | null>(null);
  const liveCount = live?.events.length ?? 0;
  // Keep the newest step in view while a turn streams.
  useEffect(() => {
    if (liveCount) bottom.current?.scrollIntoView({ block: "nearest" });
  }, [liveCount]);

  const refresh = useCallback(() => {
    void qc.invalidateQueries({ queryKey: trpc.playground.get.queryKey({ sessionId }) });
    void qc.invalidateQueries({ queryKey: trpc.playground.list.queryKey() });
  }, [qc, trpc, sessionId]);

  const follow = useCallback(
    (turn: number, request: string, mode: string) => {
      sub.current?.unsubscribe();
      setLive({ turn, request, mode, events: [] });
      setFocusTurn(null);
      const done = () => {
        sub.current = null;
        // The persisted turn replaces the live one once the history is read again.
        void qc.invalidateQueries({ queryKey: trpc.playground.get.queryKey({ sessionId }) }).then(() => setLive(null));
        void qc.invalidateQueries({ queryKey: trpc.playground.list.queryKey() });
      };
      sub.current = client.playground.follow.subscribe(
        { sessionId, from: 0 },
        {
          onData: (item) => {
            const e = item.event;
            // The streamed listing is complete: once the turn is history (listing without names), it is read from here.
            if (e.type === "run_started" && e.depth === 0) qc.setQueryData(trpc.playground.turnListing.queryKey({ sessionId, turn: item.turn }), { ...e.listing, mode: e.mode });
            setLive((l) => (l && l.turn === item.turn ? { ...l, events: [...l.events, e] } : l));
          },
          onComplete: done,
          onError: (e) => {
            setError(`The stream was interrupted: ${e.message}`);
            done();
          },
        },
      );
    },
    [client, qc, trpc, sessionId],
  );

  useEffect(() => () => sub.current?.unsubscribe(), [sessionId]);

  // A turn already running (page reloaded, another tab, or another server): follow it. On a server that does not run
  // it the follow streams nothing and ends when the turn has ended, so this runs once per turn, not in a loop.
  const running = view.data?.running;
  useEffect(() => {
    if (running && !sub.current) {
      const req = view.data?.messages.find((m) => m.turn === running.turn && m.role === "user")?.content ?? "";
      follow(running.turn, req, running.mode);
    }
  }, [running, follow, view.data]);

  const onStarted = (request: string) => (r: { turn: number; mode: string }) => {
    setError(null);
    follow(r.turn, request, r.mode);
    refresh();
  };
  const send = useMutation(trpc.playground.send.mutationOptions({ onError: (e) => setError(e.message) }));
  const replay = useMutation(trpc.playground.replay.mutationOptions({ onError: (e) => setError(e.message) }));
  const stop = useMutation(trpc.playground.stop.mutationOptions({ onError: (e) => setError(e.message) }));

  const turns = useMemo(() => groupTurns(view.data?.messages ?? []), [view.data]);

  if (view.error) return <p className="error-text" data-testid="playground-error">{view.error.message}</p>;
  if (!view.data) return <p className="muted">Loading…</p>;
  const { session, canWrite } = view.data;
  const busy = !!live || !!running || send.isPending || replay.isPending;

  const eventsOf = (t: TurnView): ShownEvent[] => (live && live.turn === t.turn ? live.events : t.answer?.record?.events ?? []);
  const liveOnly = live && !turns.some((t) => t.turn === live.turn) ? [{ turn: live.turn, request: live.request, mode: live.mode } as TurnView] : [];
  const shown = [...turns, ...liveOnly];

  const focusT = focusTurn !== null ? shown.find((t) => t.turn === focusTurn) : live ? shown.find((t) => t.turn === live.turn) : [...shown].reverse().find((t) => t.answer?.record);
  const focus: FocusTurn | null = focusT ? { turn: focusT.turn, request: focusT.request, events: eventsOf(focusT), live: !!live && live.turn === focusT.turn } : null;
  const compared: ComparedRun[] = focusT
    ? shown
        .filter((t) => t.request === focusT.request && (t.answer?.record || (live && live.turn === t.turn)))
        .map((t) => ({ turn: t.turn, mode: t.answer?.record?.mode ?? t.mode, totals: totals(costsOf(eventsOf(t))) }))
    : [];

  return (
    <div className="grid gap-4 md:grid-cols-[minmax(0,1fr)_18rem] xl:grid-cols-[minmax(0,1fr)_22rem]">
      <section className="min-w-0 space-y-3" aria-label="Chat">
        <header className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <h1 className="text-lg font-semibold" data-testid="session-title">
            {session.title}
          </h1>
          <span className="muted text-xs" data-testid="session-settings">
            {session.provider}/{session.model} · {session.mode} mode
            {session.environment ? ` · env ${session.environment}` : ""}
            {session.agent ? ` · agent ${session.agent}` : ""}
            {session.tenant ? ` · tenant ${session.tenant}` : ""}
            {session.skills?.length ? ` · skills: ${session.skills.join(", ")}` : ""}
          </span>
          <Link className="text-xs text-indigo-600 underline dark:text-indigo-400" href={`/audit?session=${encodeURIComponent(session.id)}`} data-testid="audit-link">
            Events in the audit dashboard
          </Link>
          {!canWrite && <span className="badge bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-200">read-only</span>}
        </header>
        {error && (
          <p className="error-text" data-testid="playground-error">
            {error}
          </p>
        )}
        {!shown.length && <p className="muted text-sm">Ask for something a skill can do, e.g. &quot;draft the release notes&quot;.</p>}
        {shown.map((t) => {
          const events = eventsOf(t);
          const isLive = !!live && live.turn === t.turn;
          const record = t.answer?.record;
          const answer = isLive ? answerOf(events) : t.answer?.content;
          const failed = record && record.reason !== "answered";
          return (
            <article key={t.turn} className="space-y-2" data-testid="turn" data-turn={t.turn}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="rounded-lg bg-indigo-600 px-3 py-2 text-sm whitespace-pre-wrap text-white" data-testid="request">
                  {t.request}
                </p>
                <span className="flex items-center gap-2 text-xs">
                  <span className="badge bg-zinc-100 dark:bg-zinc-800">{record?.mode ?? t.mode} mode</span>
                  {t.replayOf !== undefined && <span className="muted">replay of turn {t.replayOf}</span>}
                  <button className="underline" onClick={() => setFocusTurn(t.turn)}>
                    Inspect
                  </button>
                  {canWrite && <ReplayControl turn={t.turn} current={record?.mode ?? t.mode} disabled={busy} onReplay={(mode) => replay.mutate({ sessionId, turn: t.turn, mode }, { onSuccess: onStarted(t.request) })} />}
                </span>
              </div>
              <details open className="rounded-md border border-zinc-200 p-2 dark:border-zinc-800" data-testid="steps">
                <summary className="muted cursor-pointer text-xs">Steps</summary>
                <div className="mt-1.5">
                  <StepList steps={toSteps(events)} source={{ sessionId, turn: t.turn }} />
                  {!events.length && !isLive && !t.answer && <p className="muted text-xs">No record of this turn (the server stopped while it ran).</p>}
                </div>
              </details>
              {(answer || isLive) && (
                <div
                  className={`rounded-lg border px-3 py-2 text-sm whitespace-pre-wrap ${failed ? "border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950/40 dark:text-red-100" : "border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900"}`}
                  data-testid={failed ? "answer-failed" : "answer"}
                >
                  {answer ||
                    (isLive && running?.elsewhere && running.turn === t.turn ? (
                      // Its live steps are on that server; the follow here ends when the turn does, then the history shows it all.
                      <span className="muted" data-testid="running-elsewhere">
                        Running on another server: its steps and answer show here when it ends.
                      </span>
                    ) : (
                      <span className="muted">Working…</span>
                    ))}
                </div>
              )}
            </article>
          );
        })}
        <div ref={bottom} />
        {canWrite && (
          <form
            className="flex items-end gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              const request = draft.trim();
              if (!request) return;
              send.mutate(
                { sessionId, request },
                {
                  onSuccess: (r) => {
                    setDraft("");
                    setPreviewing(false);
                    onStarted(request)(r);
                  },
                },
              );
            }}
          >
            <textarea
              className="input min-h-16"
              aria-label="Message"
              placeholder="Ask the agent…"
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter" && !e.shiftKey) {
                  e.preventDefault();
                  e.currentTarget.form?.requestSubmit();
                }
              }}
            />
            <button type="button" className="btn" onClick={() => setPreviewing(!previewing)} disabled={!draft.trim() && !previewing} aria-pressed={previewing} title="Show in the side panel the skill listing the agent would get for this request">
              {previewing ? "Hide preview" : "Preview listing"}
            </button>
            {busy ? (
              <button type="button" className="btn btn-danger" onClick={() => stop.mutate({ sessionId })} disabled={!live && !running}>
                Stop
              </button>
            ) : (
              <button type="submit" className="btn btn-primary">
                Send
              </button>
            )}
          </form>
        )}
      </section>
      <SidePanel
        sessionId={sessionId}
        mode={session.mode}
        focus={focus}
        compared={compared}
        previewRequest={previewing && previewRequest ? previewRequest : null}
        onEndPreview={() => setPreviewing(false)}
      />
    </div>
  );
}
