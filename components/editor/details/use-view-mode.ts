"use client";
// How the author likes SKILL.md shown: as text, as the Details form, or both side by side. Remembered in this
// browser, for every skill.
import { useCallback, useEffect, useState } from "react";

export const VIEW_MODES = ["text", "details", "split"] as const;
export type ViewMode = (typeof VIEW_MODES)[number];
const KEY = "omniforge.editor.view";

export function useViewMode(): [ViewMode, (m: ViewMode) => void] {
  const [mode, setMode] = useState<ViewMode>("text");
  useEffect(() => {
    try {
      const saved = localStorage.getItem(KEY);
      if (saved && (VIEW_MODES as readonly string[]).includes(saved)) setMode(saved as ViewMode);
    } catch {
      // Storage refused (private mode): the choice lasts for this page only.
    }
  }, []);
  const choose = useCallback((m: ViewMode) => {
    setMode(m);
    try {
      localStorage.setItem(KEY, m);
    } catch {
      // as above
    }
  }, []);
  return [mode, choose];
}

/** After the guided new-skill form: open on the Details form, unless the author already chose a view. */
export function preferDetailsView(): void {
  try {
    if (!localStorage.getItem(KEY)) localStorage.setItem(KEY, "details");
  } catch {
    // Storage refused: the editor opens on its default view.
  }
}
