"use client";
// The doctor's findings for the saved skill (the doctor's half of skill.check's one problem list), drawn as
// markers beside the validator's (a separate owner, so each refreshes on its own), on whichever file of the skill
// is open; findings with an obvious fix offer it as a quick fix (the light bulb): a tool added to, or removed
// from, allowed-tools as a normal edit of the buffer.
import { useEffect } from "react";
import { monaco } from "../monaco-setup";
import { applyToolFix, type ToolFix } from "~/server/runtime/doctor/quick-fix";
import type { Problem } from "../diagnostics-list";

const OWNER = "omniforge-doctor";
const SEVERITY = { error: monaco.MarkerSeverity.Error, warning: monaco.MarkerSeverity.Warning, info: monaco.MarkerSeverity.Info } as const;
/** Quick fixes by model and marker message (markers carry no data of their own). */
const fixes = new Map<string, ToolFix>();
let registered = false;

function registerQuickFixes(): void {
  if (registered) return;
  registered = true;
  monaco.languages.registerCodeActionProvider("markdown", {
    provideCodeActions(model, _range, context) {
      const actions = context.markers
        .filter((m) => m.source === "doctor")
        .flatMap((m) => {
          const fix = fixes.get(`${model.uri.toString()}\u0000${m.message}`);
          const text = fix ? applyToolFix(model.getValue(), fix) : null;
          if (!fix || text === null || text === model.getValue()) return [];
          return [
            {
              title: "addTool" in fix ? `Add ${fix.addTool} to allowed-tools` : `Remove ${fix.removeTool} from allowed-tools`,
              kind: "quickfix",
              diagnostics: [m],
              isPreferred: true,
              edit: { edits: [{ resource: model.uri, versionId: model.getVersionId(), textEdit: { range: model.getFullModelRange(), text } }] },
            },
          ];
        });
      return { actions, dispose: () => {} };
    },
  });
}

export function useDoctorMarkers({ problems, mounted, openPath, uriFor }: { problems: readonly Problem[] | undefined; mounted: boolean; openPath: string; uriFor: (p: string) => string }) {
  useEffect(() => {
    if (!mounted || !problems) return;
    registerQuickFixes();
    const model = monaco.editor.getModel(monaco.Uri.parse(uriFor(openPath)));
    if (!model) return;
    const mine = problems.filter((f) => f.source === "doctor" && f.file === openPath);
    for (const f of mine) if (f.quickFix) fixes.set(`${model.uri.toString()}\u0000${f.message} (${f.code}; ${f.fix})`, f.quickFix);
    monaco.editor.setModelMarkers(
      model,
      OWNER,
      mine.map((f) => {
        const line = Math.min(Math.max(1, f.line), model.getLineCount());
        return {
          severity: SEVERITY[f.severity],
          message: `${f.message} (${f.code}; ${f.fix})`,
          code: f.code,
          source: "doctor",
          startLineNumber: line,
          startColumn: 1,
          endLineNumber: line,
          endColumn: model.getLineMaxColumn(line),
        };
      }),
    );
  }, [problems, mounted, openPath, uriFor]);
}
