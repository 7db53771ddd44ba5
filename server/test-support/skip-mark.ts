// How a suite skipped for something the machine lacks says why, in its own title, so the reason travels in every
// reporter's output (vitest's JSON included) and scripts/test.ts can list it beside `N passed, N failed`.
// Pure: scripts/test.ts imports it.

/**
 * What the machine lacks; or "SQLite": a test of what only SQLite has, on the PostgreSQL part of `npm test`; or
 * "PostgreSQL": a test of what only PostgreSQL has, on the SQLite part (the postgres part runs it).
 */
export type Need = "bubblewrap" | "root" | "cgroups" | "shared fixtures" | "postgresql" | "nginx" | "SQLite" | "PostgreSQL";

const MARK = /\[skipped: needs ([^:\]]+): ([^\]]*)\]/;

/** The text appended to a skipped suite's title. */
export function skipMark(need: Need, missing: string): string {
  return `[skipped: needs ${need}: ${missing.replace(/[[\]]/g, "")}]`;
}

/** The need and reason a title carries, or null for a title without a mark. */
export function readSkipMark(title: string): { need: string; missing: string } | null {
  const m = MARK.exec(title);
  return m ? { need: m[1]!, missing: m[2]! } : null;
}
