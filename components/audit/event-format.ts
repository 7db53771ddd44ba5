// Small display helpers shared by the audit tables.
export function fmtTime(at: number): string {
  return new Date(at).toISOString().replace("T", " ").slice(0, 19) + "Z";
}

export function outcomeClass(outcome: string | null): string {
  switch (outcome) {
    case "refused":
      return "bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-200";
    case "failed":
      return "bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-200";
    case "allowed":
    case "ok":
      return "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-200";
    default:
      return "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300";
  }
}

const AGENT_NAMES: Record<string, string> = { "claude-code": "Claude Code", codex: "Codex", console: "Console playground" };

/** A source as people say it: "Console playground", "Claude Code", or the agent's own name. */
export function sourceName(source: string | null | undefined): string {
  if (!source) return AGENT_NAMES.console!;
  return AGENT_NAMES[source] ?? source;
}

/** A source with its reach: "Claude Code on 12 machines" (the console has none to count). */
export function sourceLabel(s: { source: string; hosts: number }): string {
  if (s.source === "console" || s.hosts === 0) return sourceName(s.source);
  return `${sourceName(s.source)} on ${s.hosts} machine${s.hosts === 1 ? "" : "s"}`;
}
