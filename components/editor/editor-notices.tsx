"use client";
// The notices above the editor: the last error or confirmation, drafts kept on the server for files of this skill (offered back, never applied
// behind the author's back), and an administrator's review of another user's personal skill (whose, whether
// read-only, and that the visit is on the audit record).
import type { Draft, DraftOffer } from "./drafts";
import type { NoticeAction } from "./hooks/use-status";
import type { SkillInfo } from "./types";
import { Time } from "~/components/shell/time";

/** The last error or confirmation of an editor action. */
export function StatusLines({ error, notice, action }: { error: string | null; notice: string | null; action?: NoticeAction | null }) {
  return (
    <>
      {error && (
        <p className="error-text" data-testid="editor-error">
          {error}
        </p>
      )}
      {notice && (
        <p className="rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-800 dark:border-emerald-800 dark:bg-emerald-950/50 dark:text-emerald-200" data-testid="editor-notice">
          {notice}
          {action && (
            <button className="btn ml-2 px-2 py-0.5 text-xs" onClick={action.run}>
              {action.label}
            </button>
          )}
        </p>
      )}
    </>
  );
}

export function DraftOffers({ offers, onRestore, onDiscard }: { offers: Record<string, DraftOffer>; onRestore: (d: Draft) => void; onDiscard: (path: string) => void }) {
  const list = Object.values(offers);
  if (!list.length) return null;
  return (
    <div className="space-y-1">
      {list.map(({ draft, currentDigest }) => (
        <div
          key={draft.path}
          className="flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-200"
          data-testid="draft-offer"
        >
          <span>
            You have an unsaved draft of <strong>{draft.path}</strong> from <Time at={draft.updatedAt} />.
            {draft.baseDigest !== currentDigest && " The file changed since."}
          </span>
          <span className="ml-auto flex gap-2">
            <button className="btn btn-primary px-2 py-1 text-xs" onClick={() => onRestore(draft)}>
              Restore draft
            </button>
            <button className="btn px-2 py-1 text-xs" onClick={() => onDiscard(draft.path)}>
              Discard draft
            </button>
          </span>
        </div>
      ))}
    </div>
  );
}

export function ReviewBanner({ info }: { info: SkillInfo | undefined }) {
  if (!info?.reviewOf) return null;
  return (
    <p className="rounded-md border border-indigo-300 bg-indigo-50 px-3 py-2 text-sm text-indigo-900 dark:border-indigo-800 dark:bg-indigo-950/50 dark:text-indigo-200" data-testid="review-banner">
      You are reviewing a personal skill of {info.reviewOf.email ?? info.reviewOf.id}
      {info.canWrite ? "" : ", read-only"}. Each time it is opened, the audit log records it.
    </p>
  );
}
