// The repository's own source files under a folder, for the tests that hold the code to a rule (import
// direction, file size, one singleton helper). Paths are relative to the repository root.
import fs from "node:fs";
import path from "node:path";

export const repoRoot = path.resolve(import.meta.dirname, "..", "..");

const SOURCE = /\.(ts|tsx|mjs)$/;
const TEST = /\.(test|spec)\.tsx?$/;

/** .ts/.tsx/.mjs files under `dir`, recursively; `tests: false` leaves out *.test/*.spec files and .d.ts. */
export function sourceFiles(dir: string, opts: { tests?: boolean } = {}): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(repoRoot, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(rel, opts));
    else if (e.isFile() && SOURCE.test(e.name) && (opts.tests !== false || !(TEST.test(e.name) || e.name.endsWith(".d.ts")))) out.push(rel);
  }
  return out;
}
