"use client";
// SKILL.md as text, as the Details form, or both side by side (the author's choice, remembered). The text view
// stays mounted while hidden, so its undo history and cursor survive a trip to the form. Other files are text only.
import type { SkillBuffers } from "../hooks/use-skill-buffers";
import type { SkillInfo, SkillRef } from "../types";
import { DetailsForm } from "./details-form";
import { useViewMode, VIEW_MODES } from "./use-view-mode";

const LABEL = { text: "Text", details: "Details", split: "Side by side" } as const;

export function TextAndDetails(props: { files: SkillBuffers; skillRef: SkillRef; canWrite: boolean; tree: SkillInfo["files"]; reservedNamesAllowed: boolean; children: React.ReactNode }) {
  const { files, skillRef, canWrite, tree, reservedNamesAllowed, children } = props;
  const [chosen, choose] = useViewMode();
  const skillMd = files.buffers["SKILL.md"];
  const mode = files.openPath === "SKILL.md" && skillMd ? chosen : "text";
  // A form edit is a program edit of the buffer: pushed into the text model as one undoable step.
  const onText = (text: string) => {
    files.syncLater("SKILL.md");
    files.setBuffers((prev) => (prev["SKILL.md"] ? { ...prev, "SKILL.md": { ...prev["SKILL.md"], text } } : prev));
  };
  return (
    <div className="@container flex min-h-0 flex-1 flex-col gap-1">
      {files.openPath === "SKILL.md" && (
        <div className="flex gap-1" role="tablist" aria-label="SKILL.md view">
          {VIEW_MODES.map((m) => (
            <button key={m} type="button" role="tab" aria-selected={chosen === m} className={`btn px-2 py-0.5 text-xs ${chosen === m ? "btn-primary" : ""}`} onClick={() => choose(m)}>
              {LABEL[m]}
            </button>
          ))}
        </div>
      )}
      {/* Side by side needs room for two columns of about 27rem (the text's lines, the form's fields): in a narrower
          column (a 1440 px window with the file list and the preview beside it) the two stack, text above the form,
          each keeping the full width rather than both being squeezed. */}
      <div className={mode === "split" ? "grid min-h-0 flex-1 gap-2 lg:@max-[55rem]:grid-rows-[minmax(0,1fr)_minmax(0,1fr)] @min-[55rem]:grid-cols-2" : "flex min-h-0 flex-1 flex-col"}>
        <div className={mode === "details" ? "hidden" : "flex min-h-0 flex-1 flex-col"}>{children}</div>
        {mode !== "text" && skillMd && (
          <div className="card min-h-0 flex-1 overflow-auto">
            <DetailsForm skillRef={skillRef} text={skillMd.text} onText={onText} canWrite={canWrite} files={tree} reservedNamesAllowed={reservedNamesAllowed} />
          </div>
        )}
      </div>
    </div>
  );
}
