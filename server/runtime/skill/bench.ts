// Loader benchmark, in the scripts/bench convention (export name + run): 1,000 generated skills checked from
// disk (read + sha256 + parse + validate) right after import, then again warm. The target is 1,000 cold < 100 ms.
// Run alone: npx tsx server/runtime/skill/bench.ts
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { checkSkillDir, findSkillDirs } from "./index";

export const name = "skill-load";

function makeSkills(root: string, count: number) {
  const body = Array.from({ length: 80 }, (_, i) =>
    i % 10 === 0 ? `## Step ${i}\n\nRun \`python scripts/run_${i}.py --input data.csv\` and see [guide](references/guide.md).` : `Line ${i} of the instructions, with some words.`,
  ).join("\n");
  for (let i = 0; i < count; i++) {
    const dir = path.join(root, `skill-${i}`);
    fs.mkdirSync(path.join(dir, "references"), { recursive: true });
    fs.mkdirSync(path.join(dir, "scripts"), { recursive: true });
    fs.writeFileSync(path.join(dir, "references", "guide.md"), "# Guide\n");
    // Every referenced script exists, as in a real skill folder (a missing one would add a warning).
    for (let s = 0; s < 80; s += 10) fs.writeFileSync(path.join(dir, "scripts", `run_${s}.py`), "print('hi')\n");
    fs.writeFileSync(
      path.join(dir, "SKILL.md"),
      `---\nname: skill-${i}\ndescription: Does task number ${i}. Use when the user asks for task ${i} or similar work.\n` +
        `license: MIT\nallowed-tools: Bash(python:*) Read Write\nmetadata:\n  author: bench\n  version: "1.${i}"\n---\n\n# Skill ${i}\n\n${body}\n`,
    );
  }
}

/** 1,000 real SKILL.md files: the shared real-skills fixtures copied round-robin (only SKILL.md, so references are missing). */
function copyRealSkills(root: string, count: number): boolean {
  const shared = process.env.OMNIFORGE_SHARED_DIR ?? path.resolve(import.meta.dirname, "../../../../shared");
  const sources = findSkillDirs(path.join(shared, "fixtures/real-skills"));
  if (sources.length === 0) return false;
  for (let i = 0; i < count; i++) {
    const src = sources[i % sources.length]!;
    const dir = path.join(root, `copy-${i}`, path.basename(src));
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(path.join(src, "SKILL.md"), path.join(dir, "SKILL.md"));
  }
  return true;
}

/** Checks every folder once (cold for that corpus), then three more times; wall and CPU milliseconds. */
function timeLoads(dirs: string[], checkFiles = true) {
  const pass = () => {
    const t = performance.now();
    const c = process.cpuUsage();
    let valid = 0;
    for (const dir of dirs) if (checkSkillDir(dir, { rules: "omniforge", checkFiles }).valid) valid++;
    const used = process.cpuUsage(c);
    return { wall: performance.now() - t, cpu: (used.user + used.system) / 1000, valid };
  };
  const cold = pass();
  const warm = Array.from({ length: 7 }, pass);
  return {
    skills: dirs.length,
    valid: cold.valid,
    coldLoadMs: +cold.wall.toFixed(1),
    coldLoadCpuMs: +cold.cpu.toFixed(1),
    warmLoadMedianMs: +median(warm.map((w) => w.wall)).toFixed(1),
    // The fastest pass is the least disturbed by other processes on a shared machine.
    warmLoadMinMs: +Math.min(...warm.map((w) => w.wall)).toFixed(1),
    warmLoadCpuMedianMs: +median(warm.map((w) => w.cpu)).toFixed(1),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(): Promise<Record<string, unknown>> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-skill-bench-"));
  try {
    const count = 1000;
    makeSkills(path.join(root, "generated"), count);
    let t = performance.now();
    const generated = findSkillDirs(path.join(root, "generated"));
    const findSkillDirsMs = +(performance.now() - t).toFixed(1);
    // The process has loaded nothing of the checker's hot paths yet: this first pass is the cold figure.
    const result: Record<string, unknown> = { findSkillDirsMs, generated: timeLoads(generated) };
    result.generatedWithoutFileLookups = timeLoads(generated, false);
    if (copyRealSkills(path.join(root, "real"), count)) result.realSkills = timeLoads(findSkillDirs(path.join(root, "real")));
    return result;
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await run(), null, 2));
}
