"use client";
// /playground: sessions on the left, the selected session's chat and side panel. The URL keeps the session
// (?session=<id>), so the audit dashboard can link straight to one.
import { useRouter, useSearchParams } from "next/navigation";
import { Chat } from "./chat";
import { NewSessionForm } from "./new-session-form";
import { SessionList } from "./session-list";

export function Playground({ canStart }: { canStart: boolean }) {
  const params = useSearchParams();
  const router = useRouter();
  const selected = params.get("session");
  const select = (id: string | null) => router.replace(id ? `/playground?session=${encodeURIComponent(id)}` : "/playground");
  return (
    // Below 1024 px the sessions sit above the chat (their list scrolls in a short box), so the chat keeps the width
    // for its side panel, and the context meter stays beside the turns instead of under all of them.
    <div className="grid gap-4 lg:grid-cols-[16rem_minmax(0,1fr)]">
      <nav className="space-y-3" aria-label="Sessions">
        <h1 className="text-xl font-semibold">Playground</h1>
        {canStart ? (
          <details className="card" open={!selected}>
            <summary className="cursor-pointer text-sm font-medium">New session</summary>
            <div className="mt-2">
              <NewSessionForm onCreated={(id) => select(id)} />
            </div>
          </details>
        ) : (
          <p className="card muted text-sm" data-testid="viewer-notice">
            Viewers can read the playground but cannot start sessions: that needs the author role.
          </p>
        )}
        <SessionList selected={selected} onSelect={select} canWrite={canStart} />
      </nav>
      <div className="min-w-0">{selected ? <Chat key={selected} sessionId={selected} /> : <p className="muted mt-10 text-sm">Start a session or open one to chat with an agent that uses skills.</p>}</div>
    </div>
  );
}
