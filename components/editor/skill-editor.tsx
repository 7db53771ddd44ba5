"use client";
// The skill editor (loaded only in the browser, see editor-shell.tsx): Monaco per file with live diagnostics
// from the runtime's validator, frontmatter completion and hover, save with Ctrl/Cmd+S, the conflict view,
// the file tree, the preview / agent-view / history panel, export and delete. The state lives in hooks/
// (buffers, live check, save, actions); this file wires them to the views.
import type { OnMount } from "@monaco-editor/react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTRPC } from "~/components/providers/trpc";
import { CompareView } from "./compare-view";
import { ConflictView } from "./conflict-view";
import { TextAndDetails } from "./details/text-and-details";
import { DiagnosticsList } from "./diagnostics-list";
import { AgentTab } from "./disclosure-panel";
import { DraftOffers, ReviewBanner, StatusLines } from "./editor-notices";
import { EditorHeader } from "./editor-header";
import { ServedBanner } from "./served-banner";
import { FileTree } from "./file-tree";
import { HistoryPanel } from "./history-panel";
import { useDoctorMarkers } from "./hooks/use-doctor-markers";
import { useLiveCheck } from "./hooks/use-live-check";
import { useDiskWatch } from "./hooks/use-disk-watch";
import { useSave } from "./hooks/use-save";
import { useSaveKey } from "./hooks/use-save-key";
import { useSkillActions } from "./hooks/use-skill-actions";
import { useSkillBuffers } from "./hooks/use-skill-buffers";
import { useSkillPresence } from "./hooks/use-skill-presence";
import { useStatus } from "./hooks/use-status";
import { useSystemTheme } from "./hooks/use-system-theme";
import { monaco } from "./monaco-setup";
import { registerSkillProviders, setVocabulary } from "./monaco-providers";
import { LINK_CODES, RefusedLink } from "./refused-link";
import { PreviewPanel } from "./side-panel";
import { TextHost } from "./text-host";
import { SourceBanner } from "~/components/sources/source-banner";
import type { SkillRef } from "./types";

/** The file list before the skill's info arrives (one array, so the live check's input stays the same). */
const NO_FILES: readonly { path: string }[] = [];

export default function SkillEditor({ skillRef, initialFile }: { skillRef: SkillRef; initialFile?: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const theme = useSystemTheme();
  const presence = useSkillPresence(skillRef);
  const info = useQuery(trpc.skill.info.queryOptions({ ref: skillRef }, { staleTime: 0, enabled: presence.asking }));
  const vocab = useQuery(trpc.skill.vocabulary.queryOptions(undefined, { staleTime: Infinity }));
  const versions = useQuery(trpc.skill.versions.queryOptions({ ref: skillRef }, { staleTime: 0, enabled: presence.asking }));
  const canWrite = info.data?.canWrite === true;

  const [tab, setTab] = useState<"preview" | "agent" | "history">("preview");
  const [mounted, setMounted] = useState(false);
  const editorRef = useRef<Parameters<OnMount>[0] | null>(null);
  const status = useStatus();
  const { busy, error, notice, setError } = status;
  const files = useSkillBuffers(skillRef, initialFile, status);
  const { buffers, openPath, dirty, openFile, uriFor } = files;

  const invalidate = useCallback(() => {
    void qc.invalidateQueries({ queryKey: trpc.skill.info.queryKey({ ref: skillRef }) });
    void qc.invalidateQueries({ queryKey: trpc.skill.versions.queryKey({ ref: skillRef }) });
    void qc.invalidateQueries({ queryKey: trpc.skill.list.queryKey() });
    void qc.invalidateQueries({ queryKey: trpc.doctor.skill.queryKey({ ref: skillRef }) }); // the description field's findings
    void qc.invalidateQueries({ queryKey: trpc.skill.disclosure.queryKey({ ref: skillRef }) });
  }, [qc, trpc, skillRef]);

  useEffect(() => {
    if (vocab.data) setVocabulary(vocab.data);
  }, [vocab.data]);

  const check = useLiveCheck({ skillRef, skillText: buffers["SKILL.md"]?.text, setError, mounted, openPath, uriFor, send: presence.send, files: info.data?.files ?? NO_FILES, revision: info.dataUpdatedAt });
  useDoctorMarkers({ problems: check?.problems, mounted, openPath, uriFor });
  const saving = useSave({ skillRef, canWrite, buffers: files, status, invalidate });
  const { conflict, setConflict, save } = saving;
  useSaveKey(save);
  const actions = useSkillActions({ skillRef, buffers: files, status, invalidate, setConflict, presence });
  useDiskWatch({ skillRef, files, conflict, busy: status.busy, setConflict, setNotice: status.setNotice, send: presence.send });
  const { compare } = actions;

  const onMount: OnMount = (editor) => {
    editorRef.current = editor;
    registerSkillProviders(monaco);
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => save());
    setMounted(true);
  };

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

  // The panels (and their queries about the skill) go with it; the list opens next.
  if (presence.deleted) return <p className="muted text-sm">Deleted {skillRef.skill}.</p>;

  const buf = buffers[openPath];

  return (
    <div className="flex flex-col gap-3" data-testid="skill-editor">
      <EditorHeader
        skillRef={skillRef}
        info={info.data}
        canWrite={canWrite}
        busy={busy}
        canSave={!!buf && !conflict}
        openDirty={dirty.has(openPath)}
        message={saving.message}
        onMessage={saving.setMessage}
        onSave={save}
        onExport={() => void actions.onExport()}
        onDelete={() => void actions.onDeleteSkill()}
      />
      <StatusLines error={error} notice={notice} action={status.noticeAction} />
      <ReviewBanner info={info.data} />
      <ServedBanner key={info.dataUpdatedAt} info={info.data} skillRef={skillRef} />
      <SourceBanner info={info.data} />
      <DraftOffers offers={files.draftOffers} onRestore={files.restoreDraft} onDiscard={files.discardDrafts} />
      {/* Three columns fill the window on a wide screen; on a narrow one they stack and the page scrolls, the text
          keeping a usable height instead of sharing one window's height with the file list and the preview. */}
      <div className="grid gap-3 lg:h-[calc(100vh-11rem)] lg:min-h-[480px] lg:grid-cols-[14rem_minmax(0,1fr)_24rem]">
        <FileTree
          files={info.data?.files ?? []}
          openPath={openPath}
          dirty={dirty}
          canWrite={canWrite}
          busy={busy}
          onOpen={(p) => void openFile(p)}
          onCreate={(p, k) => void actions.onCreate(p, k)}
          onRename={(a, b) => void actions.onRename(a, b)}
          onDelete={(p) => void actions.onDeletePath(p)}
        />
        <div className="flex min-h-0 flex-col gap-2">
          {conflict ? (
            <ConflictView
              conflict={conflict}
              language={buf?.language ?? "markdown"}
              theme={theme}
              busy={busy}
              editorRef={saving.conflictEditorRef}
              onKeepMine={saving.keepMine}
              onTakeTheirs={saving.takeTheirs}
              onBack={() => setConflict(null)}
            />
          ) : compare ? (
            <CompareView compare={compare} modelKey={files.key} theme={theme} onClose={() => actions.setCompare(null)} />
          ) : (
            <TextAndDetails files={files} skillRef={skillRef} canWrite={canWrite} tree={info.data?.files ?? []} reservedNamesAllowed={!!info.data?.reservedNamesAllowed}>
            <TextHost
              buf={buf}
              path={openPath}
              uri={uriFor(openPath)}
              theme={theme}
              canWrite={canWrite}
              onMount={onMount}
              onChange={files.fromEditor}
            />
            </TextAndDetails>
          )}
          <DiagnosticsList
            problems={check?.problems ?? []}
            dirty={dirty}
            onGoTo={(d) => {
              void openFile(d.file).then(() => {
                editorRef.current?.revealLineInCenter(d.line);
                editorRef.current?.setPosition({ lineNumber: d.line, column: d.column });
                editorRef.current?.focus();
              });
            }}
          />
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
            {tab === "agent" && <AgentTab skillRef={skillRef} unsaved={dirty.has("SKILL.md")} check={check} />}
            {tab === "history" && (
              <HistoryPanel versions={versions.data} canWrite={canWrite} busy={busy} onCompare={(a, b) => void actions.onCompare(a, b)} onRestore={(v) => void actions.onRestore(v)} />
            )}
          </div>
        </div>
      </div>
    </div>
  );
}
