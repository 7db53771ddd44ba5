"use client";
// The editor's title bar: which skill this is (layer, status, read only), the change note and Save, Export, and
// Delete behind a confirmation.
import Link from "next/link";
import { skillsListHref } from "~/components/skills/links";
import { useState } from "react";
import { LENIENT, stateClass, stateLabel } from "~/components/skills/skill-state";
import { LAYER_LABEL } from "~/server/domain/vocabulary";
import { SkillViewTabs } from "~/components/evals/view-tabs";
import type { SkillInfo, SkillRef } from "./types";

interface Props {
  skillRef: SkillRef;
  info: SkillInfo | undefined;
  canWrite: boolean;
  busy: boolean;
  /** Save is possible: the open file is loaded and no conflict is waiting for a decision. */
  canSave: boolean;
  openDirty: boolean;
  message: string;
  onMessage: (m: string) => void;
  onSave: () => void;
  onExport: () => void;
  onDelete: () => void;
}

export function EditorHeader({ skillRef, info, canWrite, busy, canSave, openDirty, message, onMessage, onSave, onExport, onDelete }: Props) {
  const [confirmDelete, setConfirmDelete] = useState(false);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Link href={skillsListHref(skillRef)} className="muted text-sm hover:underline">
        ← Skills
      </Link>
      <h1 className="text-xl font-semibold" data-testid="skill-title">
        {info?.name ?? skillRef.skill}
      </h1>
      <span className="badge bg-indigo-100 text-indigo-800 dark:bg-indigo-900/50 dark:text-indigo-200">
        {LAYER_LABEL[skillRef.layer]}
        {skillRef.plugin ? ` · ${skillRef.plugin}` : ""}
        {skillRef.base && skillRef.base !== ".omniforge/skills" ? ` · ${skillRef.base}` : ""}
      </span>
      {info?.status && (
        <span className={`badge ${stateClass(info.status)}`} title={info.statusReason} data-testid="skill-status">
          {stateLabel(info.status)}
        </span>
      )}
      {info?.validity === "errors" && info.status !== "invalid" && (
        <span className="badge bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-200" title={LENIENT} data-testid="skill-lenient">
          loads despite errors
        </span>
      )}
      {!canWrite && info && <span className="badge bg-zinc-100 dark:bg-zinc-800">read only</span>}
      <SkillViewTabs skillRef={skillRef} current="editor" />
      <div className="ml-auto flex flex-wrap items-center gap-2">
        {canWrite && (
          <>
            <input className="input w-56 py-1" aria-label="Change note" placeholder="Change note (optional)" value={message} onChange={(e) => onMessage(e.target.value)} onKeyDown={(e) => e.key === "Enter" && !busy && canSave && onSave()} />
            <button className="btn btn-primary" onClick={onSave} disabled={busy || !canSave} title="Save (Ctrl/Cmd+S)">
              Save{openDirty ? " •" : ""}
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
              <button className="btn btn-danger" onClick={onDelete} disabled={busy}>
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
  );
}
