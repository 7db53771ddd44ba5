"use client";
// Unsaved edits survive leaving the page and follow their author to another browser: each dirty file is kept on
// the server as the signed-in user's draft (draft router; nobody else ever reads it), with the digest it was
// edited from, and offered back when the skill is opened again. Restoring keeps that digest, so if the file
// changed meanwhile the next save shows the conflict view.
import { useCallback, useRef, useState } from "react";
import { useTRPCClient } from "~/components/providers/trpc";
import type { SkillRef } from "./types";

export interface Draft {
  path: string;
  text: string;
  baseDigest: string | null;
  updatedAt: number;
}

export interface DraftOffer {
  draft: Draft;
  /** The digest of the file as just loaded: a different one means the file changed since the draft. */
  currentDigest: string | null;
}

export function useServerDrafts(skillRef: SkillRef) {
  const client = useTRPCClient();
  // The user's drafts of this skill, fetched once per editor.
  const listed = useRef<Promise<Map<string, Draft>> | null>(null);
  // What the server holds per path as far as this editor knows (text last sent): saves only send changes.
  const sent = useRef(new Map<string, string>());
  const [offers, setOffers] = useState<Record<string, DraftOffer>>({});

  const draftOf = useCallback(
    async (path: string): Promise<Draft | undefined> => {
      listed.current ??= client.draft.list
        .query({ ref: skillRef })
        .then((ds) => new Map(ds.map((d) => [d.path, d])))
        .catch(() => new Map());
      // Offered once per open: a later reload of the file (a change on disk) does not offer it again.
      const all = await listed.current;
      const d = all.get(path);
      all.delete(path);
      return d;
    },
    [client, skillRef],
  );

  const offer = useCallback((d: Draft, currentDigest: string | null) => setOffers((prev) => ({ ...prev, [d.path]: { draft: d, currentDigest } })), []);
  const dropOffer = useCallback(
    (path?: string) => setOffers((prev) => (path === undefined ? {} : Object.fromEntries(Object.entries(prev).filter(([p]) => p !== path)))),
    [],
  );

  // A draft gone from the server is offered no more: restoring it would bring back text that was given up.
  const discard = useCallback(
    (path?: string) => {
      if (path === undefined) sent.current.clear();
      else sent.current.delete(path);
      dropOffer(path);
      client.draft.discard.mutate({ ref: skillRef, ...(path !== undefined ? { path } : {}) }).catch(() => {});
    },
    [client, skillRef, dropOffer],
  );

  /** A save of `path` succeeded: the server dropped the draft with it (skill.save), so nothing of it is offered or sent. */
  const saved = useCallback(
    (path: string) => {
      sent.current.delete(path);
      dropOffer(path);
    },
    [dropOffer],
  );

  /** Sends the drafts of dirty files that changed, and drops the ones whose file is clean again. */
  const sync = useCallback(
    (buffers: Record<string, { text: string; saved: string; digest: string | null }>) => {
      for (const [path, b] of Object.entries(buffers)) {
        if (b.text !== b.saved) {
          if (sent.current.get(path) === b.text) continue;
          sent.current.set(path, b.text);
          // A failed save leaves the beforeunload warning as the protection; the next edit tries again.
          client.draft.save.mutate({ ref: skillRef, path, text: b.text, baseDigest: b.digest }).catch(() => sent.current.delete(path));
        } else if (sent.current.has(path)) {
          discard(path);
        }
      }
    },
    [client, skillRef, discard],
  );

  return { draftOf, offers, offer, dropOffer, discard, saved, sync, sent };
}
