// The tools module's files import each other in one direction (#13): no circle, type-only imports included,
// so any file can be read (and loaded) knowing only what it imports.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const dir = import.meta.dirname;

function files(sub = ""): string[] {
  return fs.readdirSync(path.join(dir, sub), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(sub, e.name);
    if (e.isDirectory()) return files(rel);
    return /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [rel] : [];
  });
}

/** Files of this folder that `rel` imports (import, import type, export ... from). */
function edges(rel: string, known: Set<string>): string[] {
  const text = fs.readFileSync(path.join(dir, rel), "utf8");
  return [...text.matchAll(/\bfrom\s*["'](\.[^"']*)["']/g)].flatMap((m) => {
    const target = path.join(path.dirname(rel), m[1]!);
    return [`${target}.ts`, path.join(target, "index.ts"), target].filter((c) => known.has(c)).slice(0, 1);
  });
}

/** One circle per file that starts one, as "a -> b -> a". */
function circles(): string[] {
  const all = files();
  const known = new Set(all);
  const graph = new Map(all.map((f) => [f, edges(f, known)]));
  const found = new Set<string>();
  const walk = (f: string, trail: string[]) => {
    const at = trail.indexOf(f);
    if (at >= 0) {
      found.add([...trail.slice(at), f].join(" -> "));
      return;
    }
    if (trail.length > all.length) return;
    for (const next of graph.get(f) ?? []) walk(next, [...trail, f]);
  };
  for (const f of all) walk(f, []);
  return [...found].filter((c) => c.split(" -> ")[0] === [...c.split(" -> ")].slice(0, -1).sort()[0]);
}

describe("server/runtime/tools imports", () => {
  it("finds the folder's own imports", () => {
    expect(edges("stack.ts", new Set(files()))).toContain("patterns.ts");
  });

  it("has no import circle", () => {
    expect(circles()).toEqual([]);
  });
});
