"use client";
import { useEffect, useState } from "react";

/** Whether the system asks for dark colours, live: the skill editor and the layers diff both follow it. */
export function usePrefersDark(): boolean {
  const [dark, setDark] = useState(false);
  useEffect(() => {
    const mq = window.matchMedia("(prefers-color-scheme: dark)");
    setDark(mq.matches);
    const on = (e: MediaQueryListEvent) => setDark(e.matches);
    mq.addEventListener("change", on);
    return () => mq.removeEventListener("change", on);
  }, []);
  return dark;
}

/** Monaco's theme follows the system's light or dark setting, live. */
export function useSystemTheme(): string {
  return usePrefersDark() ? "vs-dark" : "vs";
}
