"use client";
// One buffer per open file of the skill: the text being edited, the text last loaded or saved, and the digest
// it was loaded with (for conflict detection). Unsaved buffers are kept as the user's drafts on the server (../drafts.ts).
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTRPCClient } from "~/components/providers/trpc";
import { useServerDrafts, type Draft } from "../drafts";
import { monaco } from "../monaco-setup";
import type { SkillRef } from "../types";
import { useUnsavedGuard } from "../unsaved-guard";
import { errMessage, type Status } from "./use-status";
import { localText } from "~/components/shell/time";

export interface Buf {
  text: string;
  /** Text as last loaded or saved: dirty when text differs. */
  saved: string;
  /** sha256 of the file as loaded (null: the file does not exist on disk). */
  digest: string | null;
  language: string;
}

export function useSkillBuffers(skillRef: SkillRef, initialFile: string | undefined, status: Pick<Status, "setError" | "setNotice">) {
  const client = useTRPCClient();
  const { setError, setNotice } = status;
  const [buffers, setBuffers] = useState<Record<string, Buf>>({});
  const [openPath, setOpenPath] = useState(initialFile || "SKILL.md");
  const drafts = useServerDrafts(skillRef);

  // Refs so the Ctrl/Cmd+S command (registered once) always sees the latest state.
  const buffersRef = useRef(buffers);
  buffersRef.current = buffers;
  const openPathRef = useRef(openPath);
  openPathRef.current = openPath;

  const key = [skillRef.layer, skillRef.plugin ?? skillRef.base ?? "-", skillRef.skill].join("/");
  const uriFor = useCallback((p: string) => `file:///${key}/${p}`, [key]);

  // Monaco owns the text while typing (uncontrolled editor, one model per file). Text set by the program (a load,
  // a restore, a conflict decision) is pushed into the file's model here, as one undoable edit.
  const pendingSync = useRef(new Set<string>());
  const syncLater = useCallback((p: string) => void pendingSync.current.add(p), []);
  // The model echoes each push as a change. That echo is no edit: taken as one, it lands after a form keystroke made
  // since the push (fast typing in the Details form) and puts the older text back, so the keystroke was lost.
  const pushing = useRef(false);
  /** An edit typed in the text editor: the open file's buffer follows it. */
  const fromEditor = useCallback((text: string) => {
    if (pushing.current) return;
    const p = openPathRef.current;
    setBuffers((prev) => (prev[p] ? { ...prev, [p]: { ...prev[p]!, text } } : prev));
  }, []);
  const disposeModel = useCallback((p: string) => monaco.editor.getModel(monaco.Uri.parse(uriFor(p)))?.dispose(), [uriFor]);
  useEffect(() => {
    for (const p of [...pendingSync.current]) {
      const b = buffers[p];
      const model = monaco.editor.getModel(monaco.Uri.parse(uriFor(p)));
      if (b && model && model.getValue() !== b.text) {
        pushing.current = true;
        try {
          model.pushEditOperations([], [{ range: model.getFullModelRange(), text: b.text }], () => null);
        } finally {
          pushing.current = false;
        }
      }
      pendingSync.current.delete(p);
    }
  }, [buffers, uriFor]);
  // Leaving the editor drops this skill's models, so a later visit starts from the files, not from old models.
  const buffersForCleanup = useRef<string[]>([]);
  buffersForCleanup.current = Object.keys(buffers);
  useEffect(() => () => buffersForCleanup.current.forEach((p) => monaco.editor.getModel(monaco.Uri.parse(uriFor(p)))?.dispose()), [uriFor]);

  const dirty = useMemo(() => new Set(Object.entries(buffers).filter(([, b]) => b.text !== b.saved).map(([p]) => p)), [buffers]);
  useUnsavedGuard(dirty.size > 0);

  const loadFile = useCallback(
    async (p: string, force = false) => {
      if (!force && buffersRef.current[p]) return true;
      try {
        const f = await client.skill.readFile.query({ ref: skillRef, path: p });
        if (f.binary || f.text === null) {
          setNotice(`${p} is a binary file (${f.size} bytes); it is listed but not opened in the editor.`);
          return false;
        }
        pendingSync.current.add(p);
        setBuffers((prev) => ({ ...prev, [p]: { text: f.text!, saved: f.text!, digest: f.digest, language: f.language } }));
        const draft = await drafts.draftOf(p);
        if (draft && draft.text !== f.text) drafts.offer(draft, f.digest);
        else if (draft) drafts.discard(p);
        return true;
      } catch (e) {
        setError(errMessage(e));
        return false;
      }
    },
    [client, skillRef, setError, setNotice, drafts.draftOf, drafts.offer, drafts.discard],
  );

  /** Takes an offered draft into the buffer. Its digest is kept: if the file changed since, saving shows both versions. */
  const restoreDraft = useCallback(
    (d: Draft) => {
      const b = buffersRef.current[d.path];
      if (!b) return;
      pendingSync.current.add(d.path);
      setBuffers((prev) => ({ ...prev, [d.path]: { ...b, text: d.text, digest: d.baseDigest } }));
      drafts.dropOffer(d.path);
      setNotice(
        `Restored your unsaved draft of ${d.path} from ${localText(d.updatedAt)}.` +
          (d.baseDigest !== b.digest ? " The file changed since: saving will show both versions." : ""),
      );
    },
    [setNotice, drafts.dropOffer],
  );

  // Dirty buffers are sent as drafts (debounced, and at once when the page goes away or the editor unmounts);
  // clean ones drop theirs.
  const syncDrafts = drafts.sync;
  const flushDrafts = useCallback(() => syncDrafts(buffersRef.current), [syncDrafts]);
  useEffect(() => {
    const t = setTimeout(flushDrafts, 600);
    return () => clearTimeout(t);
  }, [buffers, flushDrafts]);
  useEffect(() => {
    window.addEventListener("pagehide", flushDrafts);
    return () => {
      window.removeEventListener("pagehide", flushDrafts);
      flushDrafts();
    };
  }, [flushDrafts]);

  const openFile = useCallback(
    async (p: string) => {
      setError(null);
      if (await loadFile(p)) setOpenPath(p);
    },
    [loadFile, setError],
  );

  useEffect(() => {
    void loadFile("SKILL.md");
    if (initialFile && initialFile !== "SKILL.md") void loadFile(initialFile);
  }, [loadFile, initialFile]);

  return { key, uriFor, buffers, setBuffers, buffersRef, openPath, setOpenPath, openPathRef, dirty, syncLater, fromEditor, disposeModel, loadFile, openFile, draftOffers: drafts.offers, restoreDraft, discardDrafts: drafts.discard, draftSaved: drafts.saved };
}

export type SkillBuffers = ReturnType<typeof useSkillBuffers>;
