// Small display helpers shared by the audit tables.
import { count } from "~/server/domain/plural";
import { CLI_SOURCE_AGENT, CONSOLE_SOURCE_LABELS, consoleSourceOf } from "~/server/domain/audit-events";
import { AGENT_LABELS } from "~/server/domain/vocabulary";
import { isConsoleSource } from "~/server/domain/audit-filter-keys";

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

/** A row's source as the source filter names it: the agent that reported it, else the console's part it is from. */
export function rowSource(e: { sourceAgent: string | null; type: string }): string {
  return e.sourceAgent ?? consoleSourceOf(e.type);
}

/** A source (a source filter value) as people say it: "Console", "Console playground", "Claude Code", or the agent's own name. */
export function sourceName(source: string): string {
  if (isConsoleSource(source)) return CONSOLE_SOURCE_LABELS[source];
  if (source === CLI_SOURCE_AGENT) return "omniforge agent run (command line)";
  return (AGENT_LABELS as Record<string, string>)[source] ?? source;
}

/** A source with its reach: "Claude Code on 12 machines" (the console has none to count). */
export function sourceLabel(s: { source: string; hosts: number }): string {
  if (isConsoleSource(s.source) || s.hosts === 0) return sourceName(s.source);
  return `${sourceName(s.source)} on ${count(s.hosts, "machine")}`;
}
