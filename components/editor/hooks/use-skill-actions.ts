"use client";
// What the file tree, the history panel and the title bar do: create, rename and delete files, compare and
// restore versions, export and delete the skill. Each keeps the open buffers in step with the files on disk.
import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC, useTRPCClient } from "~/components/providers/trpc";
import { count } from "~/server/domain/plural";
import { relinkSkillText } from "~/server/runtime/skill/relink";
import { downloadBase64 } from "../download";
import { monaco } from "../monaco-setup";
import type { SkillRef, VersionRow } from "../types";
import { conflictOf, type Conflict } from "./use-save";
import type { Buf, SkillBuffers } from "./use-skill-buffers";
import type { SkillPresence } from "./use-skill-presence";
import type { Status } from "./use-status";

export interface Compare {
  title: string;
  original: string;
  modified: string;
  language: string;
}

interface ActionsInput {
  skillRef: SkillRef;
  buffers: SkillBuffers;
  status: Status;
  invalidate: () => void;
  setConflict: (c: Conflict) => void;
  presence: SkillPresence;
}

const under = (p: string, folder: string) => p === folder || p.startsWith(folder + "/");

export function useSkillActions({ skillRef, buffers: b, status, invalidate, setConflict, presence }: ActionsInput) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const qc = useQueryClient();
  const router = useRouter();
  const { run, setError, setNotice } = status;
  const [compare, setCompare] = useState<Compare | null>(null);

  async function onCreate(p: string, kind: "file" | "folder") {
    const r = await run(() => client.skill.createFile.mutate({ ref: skillRef, path: p, kind }));
    if (!r) return;
    invalidate();
    if (kind === "file") await b.openFile(r.path);
  }

  async function onRename(from: string, to: string) {
    if ([...b.dirty].some((d) => under(d, from))) return setError(`Save ${from} before renaming it.`);
    const r = await run(() => client.skill.rename.mutate({ ref: skillRef, from, to }));
    if (!r) return;
    const moved = Object.keys(b.buffers).filter((p) => under(p, from));
    // After the editor has switched to the new path, the old models go (a new file of the old name starts clean).
    setTimeout(() => moved.forEach(b.disposeModel), 200);
    b.setBuffers((prev) => {
      const next: Record<string, Buf> = {};
      for (const [p, buf] of Object.entries(prev)) next[p === from ? r.path : p.startsWith(from + "/") ? r.path + p.slice(from.length) : p] = buf;
      return next;
    });
    if (under(b.openPath, from)) b.setOpenPath(r.path + b.openPath.slice(from.length));
    invalidate();
    const stale = relinkSkillText(skillMdText(), from, r.path).count;
    if (!stale) return setNotice(`Renamed ${from} to ${r.path}.`);
    setNotice(`Renamed ${from} to ${r.path}. SKILL.md still points to ${from} in ${count(stale, "place")}.`, {
      label: stale === 1 ? "Update the link" : `Update ${stale} links`,
      run: () => relink(from, r.path),
    });
  }

  /** SKILL.md as the author sees it: the editor's model when it has one (it owns the text while typing), else the buffer. */
  function skillMdText(): string {
    return monaco.editor.getModel(monaco.Uri.parse(b.uriFor("SKILL.md")))?.getValue() ?? b.buffersRef.current["SKILL.md"]?.text ?? "";
  }

  /** The links rewritten in SKILL.md's buffer, as one undoable edit the author reviews and saves (nothing is saved for them). */
  function relink(from: string, to: string) {
    const r = relinkSkillText(skillMdText(), from, to);
    const buf = b.buffersRef.current["SKILL.md"];
    if (!buf || !r.count) return setNotice(`SKILL.md no longer points to ${from}.`);
    b.syncLater("SKILL.md");
    b.setBuffers((prev) => ({ ...prev, "SKILL.md": { ...buf, text: r.text } }));
    b.setOpenPath("SKILL.md");
    setNotice(`Updated ${count(r.count, "reference")} in SKILL.md from ${from} to ${to}. Save SKILL.md to keep the change (Ctrl+Z undoes it).`);
  }

  async function onDeletePath(p: string) {
    const r = await run(() => client.skill.deletePath.mutate({ ref: skillRef, path: p }));
    if (!r) return;
    for (const k of Object.keys(b.buffers)) if (under(k, p)) b.discardDrafts(k);
    const gone = Object.keys(b.buffers).filter((k) => under(k, p));
    setTimeout(() => gone.forEach(b.disposeModel), 200);
    b.setBuffers((prev) => Object.fromEntries(Object.entries(prev).filter(([k]) => !under(k, p))));
    if (under(b.openPath, p)) b.setOpenPath("SKILL.md");
    setNotice(`Deleted ${p} (kept in the history).`);
    invalidate();
  }

  async function diskText(p: string): Promise<{ text: string; digest: string | null }> {
    try {
      const f = await client.skill.readFile.query({ ref: skillRef, path: p });
      return { text: f.text ?? "(binary file)", digest: f.digest };
    } catch {
      return { text: "", digest: null };
    }
  }

  async function onCompare(a: VersionRow, other: VersionRow | "current") {
    const r = await run(async () => {
      const va = await client.skill.version.query({ id: a.id });
      if (other === "current") {
        const cur = await diskText(a.path);
        return { title: `${a.path}: version #${a.id} (left) ↔ current file (right)`, original: va.content ?? "", modified: cur.text };
      }
      const vb = await client.skill.version.query({ id: other.id });
      return { title: `${a.path}: version #${a.id} (left) ↔ version #${other.id} (right)`, original: va.content ?? "", modified: vb.content ?? "" };
    });
    if (r) setCompare({ ...r, language: b.buffers[a.path]?.language ?? (a.path.endsWith(".md") ? "markdown" : "plaintext") });
  }

  async function onRestore(v: VersionRow) {
    if (b.dirty.has(v.path)) return setError(`Save or undo your changes to ${v.path} before restoring a version of it.`);
    const cur = await diskText(v.path);
    // The restored text is loaded while still busy: the disk watch, free between the two, read the restore's own
    // write as a change on disk and said so instead of this notice.
    const r = await run(async () => {
      const restored = await client.skill.restore.mutate({ id: v.id, baseDigest: cur.digest });
      if (restored.status !== "conflict") await b.loadFile(v.path, true);
      return restored;
    });
    if (!r) return;
    if (r.status === "conflict") {
      setConflict(conflictOf(r));
      return;
    }
    b.setOpenPath(v.path);
    setCompare(null);
    setNotice(`Restored ${v.path} from version #${v.id} (a new version).`);
    invalidate();
  }

  async function onExport() {
    const r = await run(() => client.skill.export.mutate({ ref: skillRef }));
    if (r) downloadBase64(r.fileName, r.base64);
  }

  async function onDeleteSkill() {
    // The live check or disk poll already sent must be answered first: after the delete each would be a 404.
    const r = await run(async () => {
      await presence.quieten();
      return client.skill.delete.mutate({ ref: skillRef });
    });
    if (!r) return presence.resume();
    presence.setDeleted();
    b.discardDrafts();
    b.setBuffers({});
    b.buffersRef.current = {};
    void qc.invalidateQueries({ queryKey: trpc.skill.list.queryKey() });
    void qc.invalidateQueries({ queryKey: trpc.skill.deleted.queryKey() });
    router.push("/skills?deleted=" + encodeURIComponent(skillRef.skill));
  }

  return { compare, setCompare, onCreate, onRename, onDeletePath, onCompare, onRestore, onExport, onDeleteSkill };
}
