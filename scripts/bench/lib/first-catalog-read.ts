// The first catalog read after start (issues 36/38), in this process as the console does it: a user's index of 600
// real skills (the shared fixtures, copied) built and watched (catalog.ts indexFor), resolved, and its search made,
// while health is asked over HTTP one request after another. Beside it, for comparison, what indexFor did before:
// the index built in one go (SkillIndex.build) and the layer handed to chokidar whole, with the code already warm
// from the first. Health's max is the longest hold of the thread in wall time, which a loaded host stretches;
// `longestCpuHoldMs` is the thread's own CPU time between two turns of its event loop, which it stretches less.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { watch } from "chokidar";
import { resolveDataHome } from "../../../server/config";
import { SkillIndex } from "../../../server/runtime/registry";
import { searchReady } from "../../../server/runtime/search/follow";
import { closeAllIndexes, indexFor, layerConfigFor } from "../../../server/services/catalog/catalog";
import { resolveCached } from "../../../server/services/catalog/resolution";
import { fixtureSkillDirs, REAL_SKILLS, seedSkills } from "./load-seed";

const SKILLS = 600;

type HealthDuring = (work: () => Promise<unknown>) => Promise<Record<string, unknown>>;

/** healthDuring's figures, and the most CPU time this thread spent between two turns of its event loop meanwhile. */
async function withCpuHold(healthDuring: HealthDuring, work: () => Promise<unknown>): Promise<Record<string, unknown>> {
  let longest = 0;
  let done = false;
  let last = process.cpuUsage();
  const tick = () => {
    const now = process.cpuUsage();
    longest = Math.max(longest, (now.user + now.system - last.user - last.system) / 1000);
    last = now;
    if (!done) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    return { ...(await healthDuring(work)), longestCpuHoldMs: Math.round(longest) };
  } finally {
    done = true;
  }
}

export async function firstCatalogRead(healthDuring: HealthDuring): Promise<Record<string, unknown>> {
  if (!fs.existsSync(REAL_SKILLS)) return { skipped: `${REAL_SKILLS} is absent (set OMNIFORGE_SHARED_DIR)` };
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-bench-first-read-"));
  try {
    seedSkills(home, fixtureSkillDirs(), SKILLS);
    fs.mkdirSync(path.join(home, "project"));
    const dataHome = resolveDataHome({ OMNIFORGE_HOME: home, OMNIFORGE_PROJECT_ROOT: path.join(home, "project") });
    let definitions = 0;
    const inTurns = await withCpuHold(healthDuring, async () => {
      const index = await indexFor("bench", dataHome);
      resolveCached(index, {});
      await searchReady(index);
      definitions = index.size;
    });
    const inOneGo = await withCpuHold(healthDuring, async () => {
      const index = SkillIndex.build(layerConfigFor("bench-2", dataHome));
      const roots = index.layerRoots().map((r) => r.dir).filter((d) => fs.existsSync(d));
      const whole = watch(roots, { ignoreInitial: true, persistent: false, followSymlinks: false, depth: 8 });
      await new Promise<void>((resolve) => whole.once("ready", () => resolve()));
      await whole.close();
    });
    return { skills: SKILLS, definitions, inTurns, inOneGoBefore: inOneGo };
  } finally {
    await closeAllIndexes();
    fs.rmSync(home, { recursive: true, force: true });
  }
}
