// Registry benchmark: synthetic layer trees (1,000 and 10,000 skills) and the real skills in
// shared/fixtures/real-skills. Measures cold index build, warm rebuild, one changed file (refresh and watcher),
// activation (body load) p50/p99 warm, resolveAll, and heap held by the index. Medians of a few runs. And a
// console's 32 users over 600 real skills (lib/console-users.ts): each user's index and search, one save, the rescan.
// Targets: 1,000 cold < 100 ms, 10,000 cold < 1 s, activation p99 < 1 ms warm, heap < 3 MB per 1,000 skills.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runInNewContext } from "node:vm";
import v8 from "node:v8";
import { checkSkillDir, findSkillDirs } from "../../server/runtime/skill";
import { BodyCache } from "../../server/runtime/registry/body";
import { layerRoots, makeLayerConfig, type LayerConfig } from "../../server/runtime/registry/layers";
import { generateLayerTree as generate } from "./lib/trees";
import { resolveAll } from "../../server/runtime/registry/resolve";
import { count } from "../../server/domain/plural";
import { SkillIndex } from "../../server/runtime/registry/skill-index";
import { median } from "./lib/stats";
import { consoleUsers } from "./lib/console-users";

export const name = "registry";

const repoRoot = path.resolve(import.meta.dirname, "../..");
const sharedDir = process.env.OMNIFORGE_SHARED_DIR ?? path.resolve(repoRoot, "../shared");

// A real collection: heap is only meaningful after a full collection. Exposing gc at run time avoids
// needing --expose-gc on the command line.
function getGc(): (() => void) | null {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) return g;
  try {
    v8.setFlagsFromString("--expose-gc");
    return runInNewContext("gc") as () => void;
  } catch {
    return null;
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))]!;
};
const ms = (x: number) => Math.round(x * 1000) / 1000;

/** Where cold-build time goes: the folder walk versus the SKILL.md parse/validate (the skill module). */
function breakdown(config: LayerConfig) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const dirs = layerRoots(config).flatMap((r) => findSkillDirs(r.dir, { maxDepth: 6 }));
  const t1 = performance.now();
  const c1 = process.cpuUsage();
  for (const d of dirs) checkSkillDir(d, { rules: "omniforge" });
  const t2 = performance.now();
  const checkCpu = cpuMs(c1);
  return {
    walkMs: ms(t1 - t0),
    walkCpuMs: ms((c1.user - c0.user + c1.system - c0.system) / 1000),
    checkSkillDirMs: ms(t2 - t1),
    checkSkillDirCpuMs: ms(checkCpu),
    checkSkillDirPerFileUs: ms(((t2 - t1) / Math.max(1, dirs.length)) * 1000),
  };
}

/** Heap held by indexes: several copies are held at once for small trees so the delta is well above noise. */
function heapOf(config: LayerConfig, gc: (() => void) | null) {
  const probe = SkillIndex.build(config).size;
  const copies = Math.max(1, Math.ceil(5000 / Math.max(1, probe)));
  gc?.();
  gc?.();
  const before = process.memoryUsage().heapUsed;
  let held: SkillIndex[] | null = [];
  for (let i = 0; i < copies; i++) {
    const index = SkillIndex.build(config);
    index.entries();
    index.definitions("x"); // the sorted list and the name map are part of what a live index holds
    held.push(index);
  }
  gc?.();
  gc?.();
  const after = process.memoryUsage().heapUsed;
  const entries = held.reduce((n, i) => n + i.size, 0);
  held = null;
  return {
    method: gc
      ? `heapUsed delta around ${count(copies, "index build")} held at once, full gc before and after (--expose-gc set at run time)`
      : `heapUsed delta around ${count(copies, "index build")} without gc (noisy, includes garbage)`,
    bytes: after - before,
    entries,
  };
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

async function watcherLatency(index: SkillIndex, file: string, runs: number) {
  const readyStart = performance.now();
  await index.watch({ debounceMs: 100 });
  const readyMs = performance.now() - readyStart;
  const latencies: number[] = [];
  for (let r = 0; r < runs; r++) {
    const marker = `watch-${r}-${Date.now()}`;
    const seen = new Promise<number>((resolve) => {
      const off = index.onChange((c) => {
        if (c.changed.some((e) => e.description.includes(marker))) {
          off();
          resolve(performance.now());
        }
      });
    });
    const start = performance.now();
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/^description: .*$/m, `description: Edited ${marker}.`));
    const timeout = new Promise<number>((resolve) => setTimeout(() => resolve(NaN), 5000));
    latencies.push((await Promise.race([seen, timeout])) - start);
    await new Promise((r2) => setTimeout(r2, 150));
  }
  await index.close();
  return { watcherReadyMs: ms(readyMs), debounceMs: 100, editToChangeEventMsMedian: ms(median(latencies)), runs };
}

async function measure(config: LayerConfig, label: string, opts: { coldRuns: number; watch: boolean; mutate: boolean; gc: (() => void) | null }) {
  const cold: number[] = [];
  const coldCpu: number[] = [];
  let index: SkillIndex | null = null;
  for (let r = 0; r < opts.coldRuns; r++) {
    const s = performance.now();
    const c = process.cpuUsage();
    index = SkillIndex.build(config, { bodyCache: new BodyCache() });
    coldCpu.push(cpuMs(c));
    cold.push(performance.now() - s);
  }
  index = index!;
  const warm: number[] = [];
  for (let r = 0; r < opts.coldRuns; r++) {
    const s = performance.now();
    index.rebuild();
    warm.push(performance.now() - s);
  }
  const entries = index.entries();
  const target = entries.find((e) => e.loadable && e.layer === "project") ?? entries.find((e) => e.loadable)!;
  const refresh: number[] = [];
  for (let r = 0; r < (opts.mutate ? 5 : 0); r++) {
    fs.writeFileSync(target.file, fs.readFileSync(target.file, "utf8").replace(/^description: .*$/m, `description: Refresh ${r}.`));
    const s = performance.now();
    const change = index.refresh([target.file]);
    refresh.push(performance.now() - s);
    if (change.changed.length !== 1) throw new Error(`refresh did not see the edit (${label})`);
  }
  const resolveTimes: number[] = [];
  let effective = 0;
  for (let r = 0; r < 3; r++) {
    const s = performance.now();
    effective = resolveAll(index).skills.length;
    resolveTimes.push(performance.now() - s);
  }
  // Activation: first load parses (cold), later loads of the same skill hit the digest cache (warm).
  const loadable = entries.filter((e) => e.loadable);
  const sample = loadable.slice(0, Math.min(loadable.length, 2000));
  const coldLoads: number[] = [];
  for (const e of sample) {
    const s = performance.now();
    index.loadBody(index.get(e.id)!);
    coldLoads.push(performance.now() - s);
  }
  const warmLoads: number[] = [];
  for (let r = 0; r < 3; r++) {
    for (const e of sample) {
      const entry = index.get(e.id)!;
      const s = performance.now();
      index.loadBody(entry);
      warmLoads.push(performance.now() - s);
    }
  }
  const result: Record<string, unknown> = {
    definitions: index.size,
    effectiveSkills: effective,
    coldBuildMsMedian: ms(median(cold)),
    coldBuildRuns: cold.map(ms),
    // CPU time of this process: less inflated than wall time when other work shares the two cores.
    coldBuildCpuMsMedian: ms(median(coldCpu)),
    warmRebuildMsMedian: ms(median(warm)),
    refreshOneFileMsMedian: refresh.length ? ms(median(refresh)) : "not measured (read-only fixtures)",
    resolveAllMsMedian: ms(median(resolveTimes)),
    activationColdMsP50: ms(pct(coldLoads, 0.5)),
    activationWarmMsP50: ms(pct(warmLoads, 0.5)),
    activationWarmMsP99: ms(pct(warmLoads, 0.99)),
    coldBuildBreakdown: breakdown(config),
  };
  const heap = heapOf(config, opts.gc);
  result.heap = { ...heap, mbPer1000: ms((heap.bytes / 1024 / 1024) * (1000 / Math.max(1, heap.entries))) };
  if (opts.watch) result.watcher = await watcherLatency(index, target.file, 3);
  return result;
}

export async function run(): Promise<Record<string, unknown>> {
  const gc = getGc();
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "of-bench-registry-"));
  const out: Record<string, unknown> = {
    targets: { cold1000Ms: 100, cold10000Ms: 1000, activationP99Ms: 1, heapMbPer1000: 3 },
    gcExposed: gc !== null,
  };
  try {
    // OMNIFORGE_BENCH_QUICK=1 skips the 10,000-skill tree (about half a minute on a busy 2-core machine).
    const sizes = [[1000, 5, true], [10000, 3, true]] as const;
    for (const [n, runs, watch] of process.env.OMNIFORGE_BENCH_QUICK ? sizes.slice(0, 1) : sizes) {
      const dir = path.join(base, `n${n}`);
      const t0 = performance.now();
      const config = generate(dir, n);
      process.stderr.write(`bench registry: generated ${n} skills in ${Math.round(performance.now() - t0)} ms\n`);
      out[`synthetic${n}`] = await measure(config, `synthetic ${n}`, { coldRuns: runs, watch, mutate: true, gc });
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const real = path.join(sharedDir, "fixtures", "real-skills");
    if (fs.existsSync(real)) out.consoleUsers = await consoleUsers();
    if (fs.existsSync(real)) {
      // The fixtures are linked in as the personal layer (not copied); the index realpaths its roots.
      const config = makeLayerConfig({ home: path.join(base, "real-home"), projectRoot: path.join(base, "real-project") });
      fs.mkdirSync(config.home, { recursive: true });
      fs.symlinkSync(real, path.join(config.home, "skills"));
      const r = await measure(config, "real", { coldRuns: 5, watch: false, mutate: false, gc });
      out.realSkills = { source: real, ...r };
    } else {
      out.realSkills = { skipped: `real skills not found at ${real} (set OMNIFORGE_SHARED_DIR)` };
      process.stderr.write(`bench registry: SKIPPED real skills: ${real} is absent\n`);
    }
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
  return out;
}
