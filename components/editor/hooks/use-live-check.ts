"use client";
// Live diagnostics for SKILL.md from the runtime's validator: debounced while typing, only the newest answer
// counts, and the answer is drawn as markers (squiggles) on the file's Monaco model.
import { useEffect, useRef, useState } from "react";
import { useTRPCClient } from "~/components/providers/trpc";
import { monaco } from "../monaco-setup";
import type { LiveCheckResult, SkillRef } from "../types";
import type { SkillPresence } from "./use-skill-presence";
import { errMessage } from "./use-status";

const SEVERITY = { error: monaco.MarkerSeverity.Error, warning: monaco.MarkerSeverity.Warning, info: monaco.MarkerSeverity.Info } as const;

interface LiveCheckInput {
  skillRef: SkillRef;
  /** The SKILL.md buffer's text; undefined until it is loaded. */
  skillText: string | undefined;
  setError: (message: string) => void;
  /** Markers are drawn once Monaco is mounted, and again when another file is opened and SKILL.md comes back. */
  mounted: boolean;
  openPath: string;
  uriFor: (p: string) => string;
  /** Sends the check (nothing once the skill is being deleted). */
  send: SkillPresence["send"];
  /**
   * The skill's files as the console last listed them: the check looks up every file the body points at, so a
   * file added, renamed or deleted must check the text again, though the text did not change.
   */
  files: readonly { path: string }[];
  /** When the skill's info last arrived (after each save or change on disk): the doctor's half of the problems reads the saved files. */
  revision: number;
}

export function useLiveCheck({ skillRef, skillText, setError, mounted, openPath, uriFor, send, files, revision }: LiveCheckInput): LiveCheckResult | null {
  const client = useTRPCClient();
  const [check, setCheck] = useState<LiveCheckResult | null>(null);
  const fileList = files.map((f) => f.path).join("\n");

  const seq = useRef(0);
  useEffect(() => {
    if (skillText === undefined) return;
    const n = ++seq.current;
    const t = setTimeout(() => {
      send(() => client.skill.check.mutate({ ref: skillRef, text: skillText }))
        ?.then((r) => {
          if (n === seq.current) setCheck(r);
        })
        .catch((e: unknown) => setError(errMessage(e)));
    }, 300);
    return () => clearTimeout(t);
  }, [skillText, fileList, revision, client, skillRef, setError, send]);

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

  return check;
}
