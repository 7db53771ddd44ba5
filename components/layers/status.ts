// How each resolution status looks: a word and a symbol as well as a colour, so nothing relies on colour alone.
import type { CandidateStatus } from "~/server/runtime/registry/types";

export const STATUS_STYLE: Record<CandidateStatus, { label: string; symbol: string; className: string }> = {
  winner: { label: "winner", symbol: "★", className: "bg-emerald-100 text-emerald-900 ring-emerald-300 dark:bg-emerald-900/50 dark:text-emerald-100 dark:ring-emerald-700" },
  shadowed: { label: "shadowed", symbol: "◌", className: "bg-zinc-100 text-zinc-700 ring-zinc-300 dark:bg-zinc-800 dark:text-zinc-300 dark:ring-zinc-600" },
  invalid: { label: "invalid", symbol: "✕", className: "bg-red-100 text-red-900 ring-red-300 dark:bg-red-950/60 dark:text-red-200 dark:ring-red-800" },
  disabled: { label: "disabled by policy", symbol: "⊘", className: "bg-amber-100 text-amber-900 ring-amber-300 dark:bg-amber-950/60 dark:text-amber-200 dark:ring-amber-800" },
  blocked: { label: "blocked", symbol: "⊗", className: "bg-rose-100 text-rose-900 ring-rose-300 dark:bg-rose-950/60 dark:text-rose-200 dark:ring-rose-800" },
  "out-of-scope": { label: "out of scope", symbol: "⌀", className: "bg-sky-50 text-sky-900 ring-sky-200 dark:bg-sky-950/50 dark:text-sky-200 dark:ring-sky-800" },
  "pending-approval": { label: "pending approval", symbol: "◷", className: "bg-violet-100 text-violet-900 ring-violet-300 dark:bg-violet-950/60 dark:text-violet-200 dark:ring-violet-800" },
};

export const LAYERS = ["enterprise", "personal", "project", "plugin"] as const;
export type Layer = (typeof LAYERS)[number];

export const LAYER_LABEL: Record<Layer, string> = { enterprise: "Enterprise", personal: "Personal", project: "Project", plugin: "Plugin" };
