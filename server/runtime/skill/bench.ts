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
    fs.writeFileSync(path.join(dir, "references", "guide.md"), "# Guide\n");
    fs.writeFileSync(
      path.join(dir, "SKILL.md"),
      `---\nname: skill-${i}\ndescription: Does task number ${i}. Use when the user asks for task ${i} or similar work.\n` +
        `license: MIT\nallowed-tools: Bash(python:*) Read Write\nmetadata:\n  author: bench\n  version: "1.${i}"\n---\n\n# Skill ${i}\n\n${body}\n`,
    );
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(): Promise<Record<string, unknown>> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-skill-bench-"));
  try {
    const count = 1000;
    makeSkills(root, count);
    let t = performance.now();
    const dirs = findSkillDirs(root);
    const findMs = performance.now() - t;
    t = performance.now();
    const cpu = process.cpuUsage();
    let valid = 0;
    for (const dir of dirs) if (checkSkillDir(dir, { rules: "omniforge" }).valid) valid++;
    const coldMs = performance.now() - t;
    const coldCpu = process.cpuUsage(cpu);
    const warm: number[] = [];
    const warmCpu: number[] = [];
    for (let round = 0; round < 3; round++) {
      t = performance.now();
      const c = process.cpuUsage();
      for (const dir of dirs) checkSkillDir(dir, { rules: "omniforge" });
      warm.push(performance.now() - t);
      const used = process.cpuUsage(c);
      warmCpu.push((used.user + used.system) / 1000);
    }
    return {
      skills: dirs.length,
      valid,
      findSkillDirsMs: +findMs.toFixed(1),
      coldLoadMs: +coldMs.toFixed(1),
      // CPU time of the same pass: less sensitive to other processes on a shared machine than wall time.
      coldLoadCpuMs: +((coldCpu.user + coldCpu.system) / 1000).toFixed(1),
      warmLoadMedianMs: +median(warm).toFixed(1),
      warmLoadCpuMedianMs: +median(warmCpu).toFixed(1),
      perSkillWarmUs: +((median(warm) / dirs.length) * 1000).toFixed(1),
    };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await run(), null, 2));
}
