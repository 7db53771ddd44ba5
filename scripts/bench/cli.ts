// CLI benchmark: whole processes, as people run `omniforge`: the command found on the PATH, a link to
// bin/omniforge.mjs as `npm link` makes one (the README's first step for the CLI; `npx omniforge` adds npm's own
// start, about a second, to every call), bundle check included. Interleaved round by round with the baselines they
// are compared to, medians reported:
// - `omniforge --help` beside a bare `node -e 0` (target: within 1.5x);
// - `omniforge skill list --json` over 10,000 synthetic skills (target: < 600 ms, and again within 1.5x of the
//   floor) beside a bare Node process that walks the same folders and reads every SKILL.md (the file-system
//   floor): run again over the same folders, as people do (its listing cache and kept answer filled), and cold (the
//   cache off), as a first listing;
// - `omniforge skill validate --recursive` over the 40 real skills copied into 600 folders (target: < 200 ms);
// - skills-ref validating the same folders in one Python process, when SKILLS_REF_DIR points at a checkout.
// Each figure is a median of wall time and of the process's CPU time (user + system, Linux), with the ratios to
// the floor in both. Also the cost of the bundle freshness check alone. OMNIFORGE_BENCH_QUICK=1: 3 rounds instead of 7.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { findSkillDirs } from "../../server/runtime/skill";
import { layerRoots } from "../../server/runtime/registry/layers";
import { generateLayerTree } from "./lib/trees";
import { compareWithReference, timeSkillsRef } from "./lib/skills-ref";
import { median } from "./lib/stats";
import { cliEntry, freshBundle } from "../cli-bundle.mjs";

export const name = "cli";

const repo = path.resolve(import.meta.dirname, "../..");
const sharedDir = process.env.OMNIFORGE_SHARED_DIR ?? path.resolve(repo, "../shared");
const bin = path.join(repo, "bin", "omniforge.mjs");

/**
 * A folder holding `omniforge` as `npm link` leaves it in the global bin folder (a symbolic link to the package's
 * bin file), and the environment that finds it first: the bin's `#!/usr/bin/env node` then runs the bench's own node.
 */
function linkedCommand(base: string): Record<string, string> {
  const dir = path.join(base, "path-bin");
  fs.mkdirSync(dir);
  fs.symlinkSync(bin, path.join(dir, "omniforge"));
  return { PATH: [dir, path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter) };
}

// The floor: a bare Node process that walks the roots and reads every SKILL.md (open, fstat, read, close; no
// parsing, no output). The leanest way to read the files, so the ratio to it is not flattered.
const FLOOR = [
  'const fs=require("fs"),p=require("path"),b=Buffer.allocUnsafe(1<<20);let n=0;',
  "const w=d=>{let es;try{es=fs.readdirSync(d,{withFileTypes:true})}catch{return}",
  'for(const e of es){const f=p.join(d,e.name);if(e.isDirectory())w(f);else if(e.name==="SKILL.md"){const fd=fs.openSync(f,"r");fs.fstatSync(fd);fs.readSync(fd,b,0,b.length,0);fs.closeSync(fd);n++}}};',
  "for(const r of process.argv.slice(1))w(r);if(!n)process.exit(3)",
].join("");

interface Timed {
  msRuns: number[];
  msMedian: number;
  /** User + system CPU of the whole process (all its threads), when the platform tells (Linux). */
  cpuMsMedian?: number;
}

interface Run {
  ms: number;
  cpuMs: number | null;
}

/**
 * CPU time (user + system, ms) of the children this process has waited for: cutime + cstime of /proc/self/stat, in
 * clock ticks of 10 ms (USER_HZ is 100 on Linux). A loaded machine stretches wall time; CPU time it inflates far
 * less, so both are printed. Null where /proc is missing.
 */
function childrenCpuMs(): number | null {
  try {
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // fields[0] is field 3 (state)
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return null;
  }
}

function timeOnce(cmd: string, args: string[], cwd: string, env: Record<string, string | undefined> = {}): Run {
  const cpu0 = childrenCpuMs();
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 256 * 1024 * 1024, env: { ...process.env, OMNIFORGE_HOME: "", OMNIFORGE_PROJECT_ROOT: "", ...env } });
  const ms = performance.now() - t0;
  const cpu1 = childrenCpuMs();
  // validate exits 1 when a skill is invalid (the real collection has some); anything else is a broken run.
  if (r.error || (r.status !== 0 && r.status !== 1)) throw new Error(`${path.basename(cmd)} ${args.join(" ")}: exit ${r.status ?? r.signal} ${String(r.stderr).slice(0, 300)}`);
  return { ms, cpuMs: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0 };
}

function summarize(runs: Run[]): Timed {
  const ms = runs.map((r) => r.ms);
  const cpu = runs.flatMap((r) => (r.cpuMs === null ? [] : [r.cpuMs]));
  return { msRuns: ms.map(Math.round), msMedian: Math.round(median(ms)), ...(cpu.length ? { cpuMsMedian: Math.round(median(cpu)) } : {}) };
}
const msOf = (runs: Run[]) => median(runs.map((r) => r.ms));
const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;

/** Wall-time ratio to the file-system floor, and the CPU-time one (steadier on a shared machine). */
function ratios(runs: Run[], floor: Run[]): { ratioToFsFloor: number; cpuRatioToFsFloor?: number } {
  const a = summarize(runs).cpuMsMedian;
  const b = summarize(floor).cpuMsMedian;
  return { ratioToFsFloor: ratio(msOf(runs), msOf(floor)), ...(a !== undefined && b ? { cpuRatioToFsFloor: ratio(a, b) } : {}) };
}

export async function run(): Promise<Record<string, unknown>> {
  const rounds = process.env.OMNIFORGE_BENCH_QUICK ? 3 : 7;
  await cliEntry(repo); // a stale bundle is rebuilt here, not inside the first timed run
  const checks: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    if (!freshBundle(repo)) throw new Error("the CLI bundle went stale during the benchmark");
    checks.push(performance.now() - t0);
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(repo, "dist", "cli", "manifest.json"), "utf8")) as { inputs: unknown[] };

  const base = fs.mkdtempSync(path.join(os.tmpdir(), "of-bench-cli-"));
  try {
    const t0 = performance.now();
    const config = generateLayerTree(path.join(base, "synthetic"), 10_000);
    const roots = layerRoots(config).map((r) => r.dir);
    process.stderr.write(`bench cli: generated 10,000 skills in ${Math.round(performance.now() - t0)} ms\n`);
    const realSrc = path.join(sharedDir, "fixtures", "real-skills");
    const real = path.join(base, "real");
    const haveReal = fs.existsSync(realSrc);
    if (haveReal) for (let k = 1; k <= 15; k++) fs.cpSync(realSrc, path.join(real, `copy-${k}`), { recursive: true });
    else process.stderr.write(`bench cli: SKIPPED validate: ${realSrc} is absent (set OMNIFORGE_SHARED_DIR)\n`);
    const realFolders = haveReal ? findSkillDirs(real) : [];

    const node0: Run[] = [];
    const help: Run[] = [];
    const list: Run[] = [];
    const listCold: Run[] = [];
    const floor: Run[] = [];
    const validate: Run[] = [];
    const validateFloor: Run[] = [];
    const node = process.execPath;
    const onPath = linkedCommand(base);
    // Run by name, as a shell does: spawnSync looks `omniforge` up in the PATH given to the child.
    const omniforge = (args: string[], env: Record<string, string> = {}) => timeOnce("omniforge", args, base, { ...onPath, ...env });
    const listArgs = ["skill", "list", "--json", "--home", config.home, "--project", config.projectRoot];
    const validateArgs = ["skill", "validate", "--recursive", real];
    // `skill list` keeps its last listing (listing-cache.ts): timed as people run it again (the cache filled by the
    // untimed pass below), and cold, with the cache off, as a first listing.
    const cached = { OMNIFORGE_CACHE_DIR: path.join(base, "cache") };
    const cold = { OMNIFORGE_CACHE_DIR: "off" };
    // One untimed pass warms the page cache for both trees; then each pair alternates which runs first, so neither
    // side always gets the cache the other just filled.
    timeOnce(node, ["-e", FLOOR, ...roots, ...(haveReal ? [real] : [])], base);
    // Three times: a listing does not keep files changed in the 2 s before it (listing-cache.ts), and these were just
    // made; the answer is kept by a listing that reused every entry, so the timed runs are served it, as a person
    // listing again an unchanged catalog is.
    for (let i = 0; i < 3; i++) omniforge(listArgs, cached);
    for (let r = 0; r < rounds; r++) {
      const pair = (a: () => void, b: () => void) => (r % 2 === 0 ? (a(), b()) : (b(), a()));
      pair(
        () => node0.push(timeOnce(node, ["-e", "0"], base)),
        () => help.push(omniforge(["--help"])),
      );
      pair(
        () => list.push(omniforge(listArgs, cached)),
        () => floor.push(timeOnce(node, ["-e", FLOOR, ...roots], base)),
      );
      listCold.push(omniforge(listArgs, cold));
      if (haveReal) {
        pair(
          () => validate.push(omniforge(validateArgs)),
          () => validateFloor.push(timeOnce(node, ["-e", FLOOR, real], base)),
        );
      }
    }
    const out: Record<string, unknown> = {
      targets: { helpRatioToNode: 1.5, list10000Ms: 600, list10000RatioToFsFloor: 1.5, validate600RealMs: 200 },
      command: "omniforge on the PATH (a link to bin/omniforge.mjs, as npm link makes)",
      rounds,
      bundleCheck: { inputs: manifest.inputs.length, usMedian: Math.round(median(checks) * 1000), what: "stat of every recorded source (in process)" },
      nodeBare: summarize(node0),
      help: { ...summarize(help), ratioToNode: ratio(msOf(help), msOf(node0)) },
      list10000: { ...summarize(list), fsFloor: summarize(floor), ...ratios(list, floor), what: "again over the same folders (its listing cache and kept answer filled)" },
      list10000Cold: { ...summarize(listCold), ...ratios(listCold, floor), what: "a first listing (OMNIFORGE_CACHE_DIR=off)" },
    };
    if (haveReal) {
      out.validateReal = { folders: realFolders.length, ...summarize(validate), fsFloor: summarize(validateFloor), ...ratios(validate, validateFloor) };
    }
    const refDir = process.env.SKILLS_REF_DIR;
    if (refDir) {
      const synthetic = roots.flatMap((root) => findSkillDirs(root, { maxDepth: 6 }));
      Object.assign(out.list10000 as object, compareWithReference(Math.round(msOf(list)), timeSkillsRef(refDir, synthetic, Math.min(rounds, 3))));
      if (haveReal) Object.assign(out.validateReal as object, compareWithReference(Math.round(msOf(validate)), timeSkillsRef(refDir, realFolders, rounds)));
    } else out.skillsRef = "not measured: set SKILLS_REF_DIR to a checkout of skills-ref (Python, with strictyaml installed)";
    return out;
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}
