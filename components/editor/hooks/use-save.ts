"use client";
// Saving a file: the save carries the digest the text was edited from, so a file changed by someone else
// comes back as a conflict instead of being overwritten; the conflict is then decided by the person.
import { useCallback, useRef, useState } from "react";
import { useTRPCClient } from "~/components/providers/trpc";
import { monaco } from "../monaco-setup";
import type { SkillRef } from "../types";
import type { SkillBuffers } from "./use-skill-buffers";
import { errMessage, type Status } from "./use-status";

export interface Conflict {
  path: string;
  theirs: string;
  theirsDigest: string | null;
  yours: string;
  diff: string;
  message: string;
}

/** The conflict view's state from a save's or a restore's "conflict" answer. */
export const conflictOf = (r: Conflict): Conflict => ({ path: r.path, theirs: r.theirs, theirsDigest: r.theirsDigest, yours: r.yours, diff: r.diff, message: r.message });

/** The part of the conflict's diff editor the decision reads: the right side, which the person may have edited. */
export interface ConflictEditor {
  getModifiedEditor: () => { getValue: () => string };
}

interface SaveInput {
  skillRef: SkillRef;
  canWrite: boolean;
  buffers: Pick<SkillBuffers, "setBuffers" | "buffersRef" | "openPathRef" | "syncLater" | "draftSaved" | "uriFor">;
  status: Pick<Status, "setBusy" | "setError" | "setNotice">;
  /** Refetches what a save changes (the skill's info, its versions, the skill list). */
  invalidate: () => void;
}

export function useSave({ skillRef, canWrite, buffers, status, invalidate }: SaveInput) {
  const client = useTRPCClient();
  const { setBuffers, buffersRef, openPathRef, syncLater, draftSaved, uriFor } = buffers;
  const { setBusy, setError, setNotice } = status;
  const [message, setMessage] = useState("");
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const conflictEditorRef = useRef<ConflictEditor | null>(null);

  // Refs so the Ctrl/Cmd+S command (registered once) always sees the latest state.
  const messageRef = useRef(message);
  messageRef.current = message;
  const canWriteRef = useRef(canWrite);
  canWriteRef.current = canWrite;
  const conflictRef = useRef(conflict);
  conflictRef.current = conflict;

  const saveText = useCallback(
    async (p: string, text: string, baseDigest: string | null) => {
      setBusy(true);
      setError(null);
      setNotice(null);
      try {
        const r = await client.skill.save.mutate({ ref: skillRef, path: p, text, baseDigest, message: messageRef.current || undefined });
        if (r.status === "saved") {
          setBuffers((prev) => ({ ...prev, [p]: { ...(prev[p] ?? { language: "plaintext" }), text: prev[p]?.text ?? text, saved: text, digest: r.digest } }));
          draftSaved(p); // the offer of an older draft would restore text from before this save
          setConflict(null);
          setMessage("");
          setNotice(`Saved ${p}.`);
          invalidate();
        } else {
          setConflict(conflictOf(r));
        }
      } catch (e) {
        setError(errMessage(e));
      } finally {
        setBusy(false);
      }
    },
    [client, skillRef, invalidate, setBuffers, draftSaved, setBusy, setError, setNotice],
  );

  const save = useCallback(() => {
    const p = openPathRef.current;
    const b = buffersRef.current[p];
    if (!b || !canWriteRef.current || conflictRef.current) return;
    // The text as the editor holds it now: the buffer follows it only when React next draws the page, so a Ctrl+S
    // pressed right after the last keystroke would save the text without it (and say "Saved").
    const text = monaco.editor.getModel(monaco.Uri.parse(uriFor(p)))?.getValue() ?? b.text;
    void saveText(p, text, b.digest);
  }, [saveText, openPathRef, buffersRef, uriFor]);

  function keepMine() {
    if (!conflict) return;
    const text = conflictEditorRef.current?.getModifiedEditor().getValue() ?? conflict.yours;
    syncLater(conflict.path);
    setBuffers((prev) => ({ ...prev, [conflict.path]: { ...(prev[conflict.path] ?? { language: "markdown", saved: "" }), text, digest: conflict.theirsDigest } }));
    const p = conflict.path;
    setConflict(null);
    void saveText(p, text, conflict.theirsDigest);
  }

  function takeTheirs() {
    if (!conflict) return;
    syncLater(conflict.path);
    setBuffers((prev) => ({ ...prev, [conflict.path]: { ...(prev[conflict.path] ?? { language: "markdown" }), text: conflict.theirs, saved: conflict.theirs, digest: conflict.theirsDigest } }));
    setConflict(null);
    setNotice(`Loaded the version on disk of ${conflict.path}; your edit was discarded.`);
  }

  return { message, setMessage, conflict, setConflict, conflictEditorRef, save, keepMine, takeTheirs };
}
