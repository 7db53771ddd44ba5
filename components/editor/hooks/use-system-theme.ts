"use client";
import { useEffect, useState } from "react";

/** Monaco's theme follows the system's light or dark setting, live. */
export function useSystemTheme(): string {
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
