"use client";
// Monaco must never be evaluated on the server: the editor module loads in the browser only (STACK.md A3).
import dynamic from "next/dynamic";
import type { SkillRef } from "./types";

const SkillEditor = dynamic(() => import("./skill-editor"), {
  ssr: false,
  loading: () => <p className="muted text-sm">Loading the editor…</p>,
});

export function EditorShell(props: { skillRef: SkillRef; initialFile?: string }) {
  return <SkillEditor {...props} />;
}
