// One way in for settings (issue #13): the product's code reads the environment only through env.ts (`env`,
// `setting()`, `processEnv()`), where every setting is declared, typed and validated once. This test fails when a
// source file reads process.env anywhere else, and when a declared setting is missing from docs/configuration.md (or a row there names no setting).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SETTINGS } from "../env";

const repo = path.resolve(import.meta.dirname, "..");
const ROOTS = ["server", "app", "components", "db", "proxy.ts", "instrumentation.ts", "next.config.ts"];
/** Files that may touch process.env, and why. */
const ALLOWED: Record<string, string> = {
  "env.ts": "the one door",
  "instrumentation.ts": "NEXT_RUNTIME is Next's own, set by Next for the hook",
};
const isTestSupport = (rel: string) => /\.test\.tsx?$/.test(rel) || /(^|\/)test-support\//.test(rel);

function sources(): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    const abs = path.join(repo, rel);
    const st = fs.statSync(abs, { throwIfNoEntry: false });
    if (!st) return;
    if (st.isFile()) {
      if (/\.(ts|tsx|mjs)$/.test(rel)) out.push(rel);
      return;
    }
    for (const d of fs.readdirSync(abs)) if (d !== "node_modules" && !d.startsWith(".")) walk(path.join(rel, d));
  };
  ROOTS.forEach(walk);
  return out;
}

describe("settings come in through env.ts only", () => {
  it("no product source reads process.env outside env.ts", () => {
    const offenders = sources()
      .filter((rel) => !ALLOWED[rel] && !isTestSupport(rel))
      .flatMap((rel) =>
        fs
          .readFileSync(path.join(repo, rel), "utf8")
          .split("\n")
          .map((line, i) => ({ line, at: `${rel}:${i + 1}` }))
          .filter(({ line }) => !/^\s*(\/\/|\/\*|\*)/.test(line) && /process\.env\b/.test(line.replace(/\/\/.*$/, "")))
          .map(({ at }) => at),
      );
    expect(offenders).toEqual([]);
  });

  it("every declared setting has a row in docs/configuration.md, and every row names declared settings", () => {
    const rows = fs
      .readFileSync(path.join(repo, "docs", "configuration.md"), "utf8")
      .split("\n")
      .filter((line) => line.startsWith("| `"))
      // The first cell of a row: the variables it documents.
      .map((line) => [...line.split("|")[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!));
    const documented = new Set(rows.flat());
    const missing = Object.keys(SETTINGS).filter((name) => name !== "NODE_ENV" && !documented.has(name));
    expect(missing).toEqual([]);
    expect([...documented].filter((name) => !(name in SETTINGS))).toEqual([]);
    expect(rows.every((names) => names.length > 0)).toBe(true);
  });
});
