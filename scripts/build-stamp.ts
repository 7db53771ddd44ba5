// Whether the console's production build (.next) still matches the sources, so `npm start` after a `git pull`
// never serves an old build. A successful build records its inputs (every source file that can change what
// `next build` makes, the lockfile included) with mtime, size and sha256 in .next/omniforge-build.json; a start
// compares: a file added, removed, or with new content means rebuild. A file whose mtime moved but whose content
// did not (a checkout that rewrote it) only updates the record.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { listFiles, type WalkRules } from "../server/runtime/walk-files";

const STAMP = "omniforge-build.json";
const FORMAT = 1;
/** Folders whose files go into the build (tests and notes excepted). */
const INPUT_DIRS = ["app", "components", "server", "db", "public"];
/** Files at the top that decide the build: configuration, the env schema, dependencies. */
const INPUT_FILES = ["env.ts", "next.config.ts", "proxy.ts", "instrumentation.ts", "postcss.config.mjs", "tsconfig.json", "package.json", "package-lock.json"];
const SOURCE = /\.(?:ts|tsx|js|jsx|mjs|cjs|css|json)$/;
const NOT_BUILT = /\.test\.(?:ts|tsx)$|(?:^|\/)test-support\//;

type Input = [rel: string, mtimeMs: number, size: number, sha256: string];
interface Stamp {
  format: number;
  builtAt: string;
  inputs: Input[];
}

const sha256 = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");

/** Every input file, relative, sorted. db/migrations is read at run time, not built, and is left out. */
export function buildInputs(repo: string): string[] {
  const rules: WalkRules = {
    enter: (rel, e) => e.name !== "node_modules" && !e.name.startsWith(".") && rel !== "db/migrations",
    keep: (rel, e) => (rel.startsWith("public") || SOURCE.test(e.name)) && !NOT_BUILT.test(rel),
  };
  const out = INPUT_DIRS.flatMap((dir) => listFiles(repo, rules, dir));
  for (const file of INPUT_FILES) if (fs.existsSync(path.join(repo, file))) out.push(file);
  return out.sort();
}

/** Stat and hash of every input, taken before a build starts (a file saved during the build then counts as changed). */
export function snapshotInputs(repo: string): Input[] {
  return buildInputs(repo).map((rel) => {
    const file = path.join(repo, rel);
    const st = fs.statSync(file);
    return [rel, st.mtimeMs, st.size, sha256(file)];
  });
}

/** Records what a successful build was made from. */
export function recordBuild(repo: string, inputs: Input[], buildDir = path.join(repo, ".next")): void {
  const stamp: Stamp = { format: FORMAT, builtAt: new Date().toISOString(), inputs };
  const file = path.join(buildDir, STAMP);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(stamp));
  fs.renameSync(`${file}.tmp`, file);
}

const some = (names: string[]) => (names.length <= 3 ? names.join(", ") : `${names.slice(0, 3).join(", ")} and ${names.length - 3} more`);

/** Why the build must be (re)made, in words for the start's log, or null when it matches the sources. */
export function staleBuild(repo: string, buildDir = path.join(repo, ".next")): string | null {
  if (!fs.existsSync(path.join(buildDir, "BUILD_ID"))) return "no production build yet";
  let stamp: Stamp | null = null;
  try {
    stamp = JSON.parse(fs.readFileSync(path.join(buildDir, STAMP), "utf8")) as Stamp;
  } catch {
    stamp = null;
  }
  if (!stamp || stamp.format !== FORMAT || !Array.isArray(stamp.inputs)) return "the build has no record of the sources it was made from";
  const recorded = new Map(stamp.inputs.map((i) => [i[0], i]));
  const current = buildInputs(repo);
  const added = current.filter((rel) => !recorded.has(rel));
  const currentSet = new Set(current);
  const removed = stamp.inputs.map((i) => i[0]).filter((rel) => !currentSet.has(rel));
  const changed: string[] = [];
  let restamp = false;
  for (const rel of current) {
    const rec = recorded.get(rel);
    if (!rec) continue;
    const st = fs.statSync(path.join(repo, rel), { throwIfNoEntry: false });
    if (!st) continue;
    if (st.mtimeMs === rec[1] && st.size === rec[2]) continue;
    if (st.size === rec[2] && sha256(path.join(repo, rel)) === rec[3]) {
      rec[1] = st.mtimeMs;
      restamp = true;
    } else changed.push(rel);
  }
  const why = [
    changed.length ? `changed since the build: ${some(changed)}` : "",
    added.length ? `new: ${some(added)}` : "",
    removed.length ? `removed: ${some(removed)}` : "",
  ].filter(Boolean);
  if (why.length) return `the sources are newer than the build (${why.join("; ")})`;
  if (restamp) {
    try {
      recordBuild(repo, [...recorded.values()], buildDir);
    } catch {
      // read-only build folder: the hashes are compared again next time
    }
  }
  return null;
}
