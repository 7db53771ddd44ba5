"use client";
// The skill editor (loaded only in the browser, see editor-shell.tsx): Monaco per file with live diagnostics
// from the runtime's validator, frontmatter completion and hover, save with Ctrl/Cmd+S, the conflict view,
// the file tree, the preview / agent-view / history panel, export and delete.
import Editor, { DiffEditor, type OnMount } from "@monaco-editor/react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTRPC, useTRPCClient } from "~/components/providers/trpc";
import { LINK_CODES, RefusedLink } from "./refused-link";
import { editorHref, LAYER_LABEL, STATUS_LABEL, STATUS_STYLE } from "~/components/skills/links";
import { downloadBase64 } from "./download";
import { clearDraft, clearSkillDrafts, draftKey, readDraft, writeDraft } from "./drafts";
import { FileTree } from "./file-tree";
import { HistoryPanel } from "./history-panel";
import { monaco } from "./monaco-setup";
import { registerSkillProviders, setVocabulary } from "./monaco-providers";
import { AgentPanel, PreviewPanel } from "./side-panel";
import type { LiveCheckResult, SkillRef, VersionRow } from "./types";
import { useUnsavedGuard } from "./unsaved-guard";

interface Buf {
  text: string;
  /** Text as last loaded or saved: dirty when text differs. */
  saved: string;
  /** sha256 of the file as loaded (null: the file does not exist on disk). */
  digest: string | null;
  language: string;
}

interface Conflict {
  path: string;
  theirs: string;
  theirsDigest: string | null;
  yours: string;
  diff: string;
  message: string;
}

interface Compare {
  title: string;
  original: string;
  modified: string;
  language: string;
}

const errMessage = (e: unknown) => (e instanceof Error ? e.message : String(e));
const SEVERITY = { error: monaco.MarkerSeverity.Error, warning: monaco.MarkerSeverity.Warning, info: monaco.MarkerSeverity.Info } as const;

function useSystemTheme(): string {
  const [dark, setDark] = useState(false);
  useEffect(() => {
    const mq = window.matchMedia("(prefers-color-scheme: dark)");
    setDark(mq.matches);
    const on = (e: MediaQueryListEvent) => setDark(e.matches);
    mq.addEventListener("change", on);
    return () => mq.removeEventListener("change", on);
  }, []);
  return dark ? "vs-dark" : "vs";
}

export default function SkillEditor({ skillRef, initialFile }: { skillRef: SkillRef; initialFile?: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const qc = useQueryClient();
  const router = useRouter();
  const theme = useSystemTheme();
  const info = useQuery(trpc.skill.info.queryOptions({ ref: skillRef }, { staleTime: 0 }));
  const vocab = useQuery(trpc.skill.vocabulary.queryOptions(undefined, { staleTime: Infinity }));
  const versions = useQuery(trpc.skill.versions.queryOptions({ ref: skillRef }, { staleTime: 0 }));
  const canWrite = info.data?.canWrite === true;

  const [buffers, setBuffers] = useState<Record<string, Buf>>({});
  const [openPath, setOpenPath] = useState(initialFile || "SKILL.md");
  const [check, setCheck] = useState<LiveCheckResult | null>(null);
  const [tab, setTab] = useState<"preview" | "agent" | "history">("preview");
  const [message, setMessage] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [compare, setCompare] = useState<Compare | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [mounted, setMounted] = useState(false);
  const editorRef = useRef<Parameters<OnMount>[0] | null>(null);
  const conflictEditorRef = useRef<{ getModifiedEditor: () => { getValue: () => string } } | null>(null);

  // Refs so the Ctrl/Cmd+S command (registered once) always sees the latest state.
  const buffersRef = useRef(buffers);
  buffersRef.current = buffers;
  const openPathRef = useRef(openPath);
  openPathRef.current = openPath;
  const messageRef = useRef(message);
  messageRef.current = message;

  const key = [skillRef.layer, skillRef.plugin ?? skillRef.base ?? "-", skillRef.skill].join("/");
  const uriFor = useCallback((p: string) => `file:///${key}/${p}`, [key]);

  // Monaco owns the text while typing (uncontrolled editor, one model per file). Text set by the program (a load,
  // a restore, a conflict decision) is pushed into the file's model here, as one undoable edit.
  const pendingSync = useRef(new Set<string>());
  const disposeModel = useCallback((p: string) => monaco.editor.getModel(monaco.Uri.parse(uriFor(p)))?.dispose(), [uriFor]);
  useEffect(() => {
    for (const p of [...pendingSync.current]) {
      const b = buffers[p];
      const model = monaco.editor.getModel(monaco.Uri.parse(uriFor(p)));
      if (b && model && model.getValue() !== b.text) {
        model.pushEditOperations([], [{ range: model.getFullModelRange(), text: b.text }], () => null);
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

  const invalidate = useCallback(() => {
    void qc.invalidateQueries({ queryKey: trpc.skill.info.queryKey({ ref: skillRef }) });
    void qc.invalidateQueries({ queryKey: trpc.skill.versions.queryKey({ ref: skillRef }) });
    void qc.invalidateQueries({ queryKey: trpc.skill.list.queryKey() });
  }, [qc, trpc, skillRef]);

  const loadFile = useCallback(
    async (p: string, force = false) => {
      if (!force && buffersRef.current[p]) return true;
      try {
        const f = await client.skill.readFile.query({ ref: skillRef, path: p });
        if (f.binary || f.text === null) {
          setNotice(`${p} is a binary file (${f.size} bytes); it is listed but not opened in the editor.`);
          return false;
        }
        const draft = readDraft(draftKey(key, p));
        if (draft && draft.text !== f.text) {
          // Keep the digest the draft was edited from: if the file changed since, saving shows the conflict view.
          pendingSync.current.add(p);
          setBuffers((prev) => ({ ...prev, [p]: { text: draft.text, saved: f.text!, digest: draft.digest, language: f.language } }));
          setNotice(
            `Restored your unsaved draft of ${p} from ${new Date(draft.at).toLocaleString()}.` +
              (draft.digest !== f.digest ? " The file changed on disk since: saving will show both versions." : ""),
          );
        } else {
          if (draft) clearDraft(draftKey(key, p));
          pendingSync.current.add(p);
          setBuffers((prev) => ({ ...prev, [p]: { text: f.text!, saved: f.text!, digest: f.digest, language: f.language } }));
        }
        return true;
      } catch (e) {
        setError(errMessage(e));
        return false;
      }
    },
    [client, skillRef, key],
  );

  // Dirty buffers are mirrored to localStorage (debounced, and at once when the page goes away or the editor
  // unmounts); clean ones drop their draft.
  const flushDrafts = useCallback(() => {
    for (const [p, b] of Object.entries(buffersRef.current)) {
      if (b.text !== b.saved) writeDraft(draftKey(key, p), { text: b.text, digest: b.digest });
      else clearDraft(draftKey(key, p));
    }
  }, [key]);
  useEffect(() => {
    const t = setTimeout(flushDrafts, 400);
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
    [loadFile],
  );

  useEffect(() => {
    void loadFile("SKILL.md");
    if (initialFile && initialFile !== "SKILL.md") void loadFile(initialFile);
  }, [loadFile, initialFile]);

  useEffect(() => {
    if (vocab.data) setVocabulary(vocab.data);
  }, [vocab.data]);

  // Live diagnostics: debounced, and only the newest answer counts.
  const skillText = buffers["SKILL.md"]?.text;
  const seq = useRef(0);
  useEffect(() => {
    if (skillText === undefined) return;
    const n = ++seq.current;
    const t = setTimeout(() => {
      client.skill.check
        .mutate({ ref: skillRef, text: skillText })
        .then((r) => {
          if (n === seq.current) setCheck(r);
        })
        .catch((e: unknown) => setError(errMessage(e)));
    }, 300);
    return () => clearTimeout(t);
  }, [skillText, client, skillRef]);

  useEffect(() => {
    if (!mounted) return;
    const model = monaco.editor.getModel(monaco.Uri.parse(uriFor("SKILL.md")));
    if (!model) return;
    monaco.editor.setModelMarkers(
      model,
      "omniforge",
      (check?.diagnostics ?? []).map((d) => {
        const fileLevel = d.line === d.endLine && d.column === d.endColumn;
        const line = Math.min(d.line, model.getLineCount());
        return {
          severity: SEVERITY[d.severity],
          message: d.message,
          code: d.code,
          source: "omniforge",
          startLineNumber: line,
          startColumn: fileLevel ? 1 : d.column,
          endLineNumber: Math.min(d.endLine, model.getLineCount()),
          endColumn: fileLevel ? model.getLineMaxColumn(line) : d.endColumn,
        };
      }),
    );
  }, [check, mounted, openPath, uriFor]);

  const saveText = useCallback(
    async (p: string, text: string, baseDigest: string | null) => {
      setBusy(true);
      setError(null);
      setNotice(null);
      try {
        const r = await client.skill.save.mutate({ ref: skillRef, path: p, text, baseDigest, message: messageRef.current || undefined });
        if (r.status === "saved") {
          setBuffers((prev) => ({ ...prev, [p]: { ...(prev[p] ?? { language: "plaintext" }), text: prev[p]?.text ?? text, saved: text, digest: r.digest } }));
          setConflict(null);
          setMessage("");
          setNotice(`Saved ${p}.`);
          invalidate();
        } else {
          setConflict({ path: r.path, theirs: r.theirs, theirsDigest: r.theirsDigest, yours: r.yours, diff: r.diff, message: r.message });
        }
      } catch (e) {
        setError(errMessage(e));
      } finally {
        setBusy(false);
      }
    },
    [client, skillRef, invalidate],
  );

  const save = useCallback(() => {
    const p = openPathRef.current;
    const b = buffersRef.current[p];
    if (!b || !canWriteRef.current || conflictRef.current) return;
    void saveText(p, b.text, b.digest);
  }, [saveText]);
  const canWriteRef = useRef(canWrite);
  canWriteRef.current = canWrite;
  const conflictRef = useRef(conflict);
  conflictRef.current = conflict;

  const onMount: OnMount = (editor) => {
    editorRef.current = editor;
    registerSkillProviders(monaco);
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => save());
    setMounted(true);
  };

  async function run<T>(what: () => Promise<T>): Promise<T | undefined> {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      return await what();
    } catch (e) {
      setError(errMessage(e));
      return undefined;
    } finally {
      setBusy(false);
    }
  }

  async function onCreate(p: string, kind: "file" | "folder") {
    const r = await run(() => client.skill.createFile.mutate({ ref: skillRef, path: p, kind }));
    if (!r) return;
    invalidate();
    if (kind === "file") await openFile(r.path);
  }

  async function onRename(from: string, to: string) {
    if ([...dirty].some((d) => d === from || d.startsWith(from + "/"))) return setError(`Save ${from} before renaming it.`);
    const r = await run(() => client.skill.rename.mutate({ ref: skillRef, from, to }));
    if (!r) return;
    const moved = Object.keys(buffers).filter((p) => p === from || p.startsWith(from + "/"));
    // After the editor has switched to the new path, the old models go (a new file of the old name starts clean).
    setTimeout(() => moved.forEach(disposeModel), 200);
    setBuffers((prev) => {
      const next: Record<string, Buf> = {};
      for (const [p, b] of Object.entries(prev)) next[p === from ? r.path : p.startsWith(from + "/") ? r.path + p.slice(from.length) : p] = b;
      return next;
    });
    if (openPath === from || openPath.startsWith(from + "/")) setOpenPath(r.path + openPath.slice(from.length));
    invalidate();
  }

  async function onDeletePath(p: string) {
    const r = await run(() => client.skill.deletePath.mutate({ ref: skillRef, path: p }));
    if (!r) return;
    for (const k of Object.keys(buffers)) if (k === p || k.startsWith(p + "/")) clearDraft(draftKey(key, k));
    const gone = Object.keys(buffers).filter((k) => k === p || k.startsWith(p + "/"));
    setTimeout(() => gone.forEach(disposeModel), 200);
    setBuffers((prev) => Object.fromEntries(Object.entries(prev).filter(([k]) => k !== p && !k.startsWith(p + "/"))));
    if (openPath === p || openPath.startsWith(p + "/")) setOpenPath("SKILL.md");
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

  async function onCompare(a: VersionRow, b: VersionRow | "current") {
    const r = await run(async () => {
      const va = await client.skill.version.query({ id: a.id });
      if (b === "current") {
        const cur = await diskText(a.path);
        return { title: `${a.path}: version ${a.id} (left) ↔ current file (right)`, original: va.content ?? "", modified: cur.text };
      }
      const vb = await client.skill.version.query({ id: b.id });
      return { title: `${a.path}: version ${a.id} (left) ↔ version ${b.id} (right)`, original: va.content ?? "", modified: vb.content ?? "" };
    });
    if (r) setCompare({ ...r, language: buffers[a.path]?.language ?? (a.path.endsWith(".md") ? "markdown" : "plaintext") });
  }

  async function onRestore(v: VersionRow) {
    if (dirty.has(v.path)) return setError(`Save or undo your changes to ${v.path} before restoring a version of it.`);
    const cur = await diskText(v.path);
    const r = await run(() => client.skill.restore.mutate({ id: v.id, baseDigest: cur.digest }));
    if (!r) return;
    if (r.status === "conflict") {
      setConflict({ path: r.path, theirs: r.theirs, theirsDigest: r.theirsDigest, yours: r.yours, diff: r.diff, message: r.message });
      return;
    }
    await loadFile(v.path, true);
    setOpenPath(v.path);
    setCompare(null);
    setNotice(`Restored ${v.path} from version ${v.id} (a new version).`);
    invalidate();
  }

  async function onExport() {
    const r = await run(() => client.skill.export.mutate({ ref: skillRef }));
    if (r) downloadBase64(r.fileName, r.base64);
  }

  async function onDeleteSkill() {
    const r = await run(() => client.skill.delete.mutate({ ref: skillRef }));
    if (!r) return;
    clearSkillDrafts(key);
    setBuffers({});
    buffersRef.current = {};
    void qc.invalidateQueries({ queryKey: trpc.skill.list.queryKey() });
    void qc.invalidateQueries({ queryKey: trpc.skill.deleted.queryKey() });
    router.push("/skills?deleted=" + encodeURIComponent(skillRef.skill));
  }

  function keepMine() {
    if (!conflict) return;
    const text = conflictEditorRef.current?.getModifiedEditor().getValue() ?? conflict.yours;
    pendingSync.current.add(conflict.path);
    setBuffers((prev) => ({ ...prev, [conflict.path]: { ...(prev[conflict.path] ?? { language: "markdown", saved: "" }), text, digest: conflict.theirsDigest } }));
    const p = conflict.path;
    setConflict(null);
    void saveText(p, text, conflict.theirsDigest);
  }

  function takeTheirs() {
    if (!conflict) return;
    pendingSync.current.add(conflict.path);
    setBuffers((prev) => ({ ...prev, [conflict.path]: { ...(prev[conflict.path] ?? { language: "markdown" }), text: conflict.theirs, saved: conflict.theirs, digest: conflict.theirsDigest } }));
    setConflict(null);
    setNotice(`Loaded the version on disk of ${conflict.path}; your edit was discarded.`);
  }

  if (info.error) {
    const code = (info.error.data as { details?: { code?: string } | null } | undefined)?.details?.code;
    if (code && LINK_CODES.has(code)) return <RefusedLink skillRef={skillRef} message={info.error.message} />;
    return (
      <div className="space-y-3">
        <p className="error-text" data-testid="editor-error">
          {info.error.message}
        </p>
        <Link className="btn" href="/skills">
          Back to skills
        </Link>
      </div>
    );
  }

  const buf = buffers[openPath];
  const diags = check?.diagnostics ?? [];
  const errors = diags.filter((d) => d.severity === "error").length;
  const warnings = diags.filter((d) => d.severity === "warning").length;

  return (
    <div className="flex flex-col gap-3" data-testid="skill-editor">
      <div className="flex flex-wrap items-center gap-2">
        <Link href="/skills" className="muted text-sm hover:underline">
          ← Skills
        </Link>
        <h1 className="text-xl font-semibold" data-testid="skill-title">
          {info.data?.name ?? skillRef.skill}
        </h1>
        <span className="badge bg-indigo-100 text-indigo-800 dark:bg-indigo-900/50 dark:text-indigo-200">
          {LAYER_LABEL[skillRef.layer]}
          {skillRef.plugin ? ` · ${skillRef.plugin}` : ""}
          {skillRef.base && skillRef.base !== ".omniforge/skills" ? ` · ${skillRef.base}` : ""}
        </span>
        {info.data?.status && (
          <span className={`badge ${STATUS_STYLE[info.data.status] ?? ""}`} title={info.data.statusReason} data-testid="skill-status">
            {STATUS_LABEL[info.data.status] ?? info.data.status}
          </span>
        )}
        {!canWrite && info.data && <span className="badge bg-zinc-100 dark:bg-zinc-800">read only</span>}
        <div className="ml-auto flex flex-wrap items-center gap-2">
          {canWrite && (
            <>
              <input className="input w-56 py-1" aria-label="Change note" placeholder="Change note (optional)" value={message} onChange={(e) => setMessage(e.target.value)} />
              <button className="btn btn-primary" onClick={save} disabled={busy || !buf || !!conflict} title="Save (Ctrl/Cmd+S)">
                Save{dirty.has(openPath) ? " •" : ""}
              </button>
            </>
          )}
          <button className="btn" onClick={onExport} disabled={busy}>
            Export .zip
          </button>
          {canWrite &&
            (confirmDelete ? (
              <span className="flex items-center gap-1 text-sm" data-testid="confirm-delete">
                Delete the whole skill?
                <button className="btn btn-danger" onClick={onDeleteSkill} disabled={busy}>
                  Delete skill
                </button>
                <button className="btn" onClick={() => setConfirmDelete(false)}>
                  Cancel
                </button>
              </span>
            ) : (
              <button className="btn" onClick={() => setConfirmDelete(true)}>
                Delete…
              </button>
            ))}
        </div>
      </div>
      {error && (
        <p className="error-text" data-testid="editor-error">
          {error}
        </p>
      )}
      {notice && (
        <p className="rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-800 dark:border-emerald-800 dark:bg-emerald-950/50 dark:text-emerald-200" data-testid="editor-notice">
          {notice}
        </p>
      )}
      <div className="grid gap-3 lg:grid-cols-[14rem_minmax(0,1fr)_24rem]" style={{ height: "calc(100vh - 11rem)", minHeight: 480 }}>
        <FileTree
          files={info.data?.files ?? []}
          openPath={openPath}
          dirty={dirty}
          canWrite={canWrite}
          busy={busy}
          onOpen={(p) => void openFile(p)}
          onCreate={(p, k) => void onCreate(p, k)}
          onRename={(a, b) => void onRename(a, b)}
          onDelete={(p) => void onDeletePath(p)}
        />
        <div className="flex min-h-0 flex-col gap-2">
          {conflict ? (
            <div className="flex min-h-0 flex-1 flex-col gap-2 rounded border border-amber-400 p-2" data-testid="conflict-view">
              <p className="text-sm font-medium">{conflict.message}</p>
              <div className="muted flex text-xs">
                <span className="flex-1">On disk now (theirs)</span>
                <span className="flex-1">Yours (you can edit it here)</span>
              </div>
              <div className="min-h-0 flex-1">
                <DiffEditor
                  height="100%"
                  original={conflict.theirs}
                  modified={conflict.yours}
                  language={buf?.language ?? "markdown"}
                  theme={theme}
                  originalModelPath={`inmemory://conflict/theirs/${conflict.path}`}
                  modifiedModelPath={`inmemory://conflict/yours/${conflict.path}`}
                  options={{ renderSideBySide: true, automaticLayout: true, minimap: { enabled: false }, originalEditable: false }}
                  onMount={(e) => {
                    conflictEditorRef.current = e;
                  }}
                />
              </div>
              <details>
                <summary className="cursor-pointer text-xs">Unified diff</summary>
                <pre className="max-h-40 overflow-auto rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-800" data-testid="conflict-diff">
                  {conflict.diff}
                </pre>
              </details>
              <div className="flex flex-wrap gap-2">
                <button className="btn btn-primary" onClick={keepMine} disabled={busy}>
                  Save mine over theirs
                </button>
                <button className="btn" onClick={takeTheirs}>
                  Take theirs
                </button>
                <button className="btn" onClick={() => setConflict(null)}>
                  Back to my edit
                </button>
              </div>
            </div>
          ) : compare ? (
            <div className="flex min-h-0 flex-1 flex-col gap-2" data-testid="compare-view">
              <div className="flex items-center gap-2 text-sm">
                <span className="font-medium">{compare.title}</span>
                <button className="btn ml-auto px-2 py-1 text-xs" onClick={() => setCompare(null)}>
                  Close comparison
                </button>
              </div>
              <div className="min-h-0 flex-1 rounded border border-zinc-200 dark:border-zinc-800">
                <DiffEditor
                  height="100%"
                  original={compare.original}
                  modified={compare.modified}
                  language={compare.language}
                  theme={theme}
                  originalModelPath={`inmemory://compare/a/${key}`}
                  modifiedModelPath={`inmemory://compare/b/${key}`}
                  options={{ readOnly: true, automaticLayout: true, minimap: { enabled: false } }}
                />
              </div>
            </div>
          ) : (
            <div className="min-h-0 flex-1 overflow-hidden rounded border border-zinc-200 dark:border-zinc-800" data-testid="monaco-host">
              {buf ? (
                <Editor
                  height="100%"
                  path={uriFor(openPath)}
                  language={buf.language}
                  defaultValue={buf.text}
                  theme={theme}
                  onMount={onMount}
                  onChange={(v) => {
                    const p = openPathRef.current;
                    setBuffers((prev) => (prev[p] ? { ...prev, [p]: { ...prev[p]!, text: v ?? "" } } : prev));
                  }}
                  options={{
                    readOnly: !canWrite,
                    minimap: { enabled: false },
                    wordWrap: "on",
                    fontSize: 13,
                    automaticLayout: true,
                    scrollBeyondLastLine: false,
                    quickSuggestions: { other: true, comments: false, strings: true },
                    fixedOverflowWidgets: true,
                  }}
                />
              ) : (
                <p className="muted p-3 text-sm">Loading {openPath}…</p>
              )}
            </div>
          )}
          <div className="max-h-40 overflow-auto rounded border border-zinc-200 text-xs dark:border-zinc-800" data-testid="diagnostics">
            <div className="flex items-center gap-2 border-b border-zinc-200 px-2 py-1 dark:border-zinc-800">
              <span className="font-semibold">SKILL.md diagnostics</span>
              <span className={errors ? "text-red-700 dark:text-red-300" : "muted"}>{errors} errors</span>
              <span className={warnings ? "text-amber-700 dark:text-amber-300" : "muted"}>{warnings} warnings</span>
              {dirty.size > 0 && <span className="ml-auto text-amber-700 dark:text-amber-300">Unsaved: {[...dirty].join(", ")}</span>}
            </div>
            {diags.length === 0 ? (
              <p className="muted px-2 py-1">No problems.</p>
            ) : (
              <ul>
                {diags.map((d, i) => (
                  <li key={i}>
                    <button
                      type="button"
                      className="flex w-full gap-2 px-2 py-0.5 text-left hover:bg-zinc-50 dark:hover:bg-zinc-800"
                      onClick={() => {
                        void openFile("SKILL.md").then(() => {
                          editorRef.current?.revealLineInCenter(d.line);
                          editorRef.current?.setPosition({ lineNumber: d.line, column: d.column });
                          editorRef.current?.focus();
                        });
                      }}
                    >
                      <span className={d.severity === "error" ? "text-red-700 dark:text-red-300" : d.severity === "warning" ? "text-amber-700 dark:text-amber-300" : "muted"}>
                        {d.severity}
                      </span>
                      <span className="muted shrink-0">
                        {d.line}:{d.column}
                      </span>
                      <code className="shrink-0">{d.code}</code>
                      <span>{d.message}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
        <div className="flex min-h-0 flex-col gap-2">
          <div className="flex gap-1" role="tablist">
            {(["preview", "agent", "history"] as const).map((t) => (
              <button key={t} role="tab" aria-selected={tab === t} className={`btn px-2 py-1 text-xs ${tab === t ? "btn-primary" : ""}`} onClick={() => setTab(t)}>
                {t === "preview" ? "Preview" : t === "agent" ? "Agent view" : `History${versions.data ? ` (${versions.data.length})` : ""}`}
              </button>
            ))}
          </div>
          <div className="card min-h-0 flex-1 overflow-auto">
            {tab === "preview" && <PreviewPanel check={check} onOpen={(p) => void openFile(p)} />}
            {tab === "agent" && <AgentPanel check={check} />}
            {tab === "history" && <HistoryPanel versions={versions.data} canWrite={canWrite} busy={busy} onCompare={(a, b) => void onCompare(a, b)} onRestore={(v) => void onRestore(v)} />}
          </div>
        </div>
      </div>
    </div>
  );
}

