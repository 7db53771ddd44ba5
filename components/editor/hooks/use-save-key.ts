"use client";
// Ctrl/Cmd+S anywhere on the editor's page saves, as the Save button's title says. Monaco's own command covers the
// text only (and marks the key handled); in the Details form or the change note the key was the browser's "save
// this web page", and the edit stayed unsaved.
import { useEffect, useRef } from "react";

export function useSaveKey(save: () => void): void {
  const latest = useRef(save);
  latest.current = save;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || !(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey || e.key.toLowerCase() !== "s") return;
      e.preventDefault();
      latest.current();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
