// The first trigger run after the console starts (issue 35 item 5): the production console (`npm start`'s server)
// on a free port over a throw-away data home with the shared fixtures' real skills copied up to 600 and one skill
// holding 500 trigger cases; an admin signs in, opens the skill's trigger set as the page does, and starts a run
// with the offline provider while another client asks /api/health every 20 ms until the run is done. What the
// first run pays for that later ones do not (the ranking's search over the catalog, the token estimator) must not
// hold the console's thread: health p99 under 100 ms. A second run follows on the same console for comparison, and
// the machine's load average is printed beside the figures.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, startConsole, stopConsole } from "./console-process";
import { Client } from "./load-client";
import { fixtureSkillDirs, REAL_SKILLS, seedSkills, seedUsers } from "./load-seed";

const repo = path.resolve(import.meta.dirname, "..", "..", "..");
const SKILLS = 600;
const CASES = 500;
const EVERY_MS = 20;

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN);
const loadAverage = () => os.loadavg().map((x) => Math.round(x * 100) / 100);

/** Health latencies while `work` runs, one request every EVERY_MS (or as soon as the last one answered). */
async function healthEvery(base: string, work: () => Promise<unknown>) {
  let done = false;
  const lat: number[] = [];
  const sampling = (async () => {
    while (!done) {
      const t = performance.now();
      await (await fetch(`${base}/api/health`)).arrayBuffer();
      const ms = performance.now() - t;
      lat.push(ms);
      if (ms < EVERY_MS) await new Promise((r) => setTimeout(r, EVERY_MS - ms));
    }
  })();
  const t0 = performance.now();
  try {
    await work();
  } finally {
    done = true;
    await sampling;
  }
  const s = [...lat].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 10) / 10;
  return { workMs: Math.round(performance.now() - t0), healthAnswers: s.length, healthP50Ms: r(pct(s, 50)), healthP99Ms: r(pct(s, 99)), healthMaxMs: r(s.at(-1) ?? NaN) };
}

function seedSkillUnderTest(home: string): { layer: "enterprise"; skill: string } {
  const dir = path.join(home, "enterprise", "skills", "release-build");
  fs.mkdirSync(path.join(dir, "evals"), { recursive: true });
  fs.writeFileSync(path.join(dir, "SKILL.md"), "---\nname: release-build\ndescription: Builds and tags a release of the product. Use when the user asks for a release build.\n---\n\n# Release build\n\nRun the build, then tag it.\n");
  const cases = Array.from({ length: CASES }, (_, i) =>
    i % 2 ? { query: `cut release ${i} of the product and tag the build`, should_trigger: true } : { query: `summarise the meeting notes of week ${i}`, should_trigger: false },
  );
  fs.writeFileSync(path.join(dir, "evals", "triggers.json"), JSON.stringify(cases, null, 2));
  return { layer: "enterprise", skill: "release-build" };
}

/** `cpuProf`: a folder for the console's CPU profile (its server process run under `node --cpu-prof`). */
export async function firstTriggerRunAfterStart(cpuProf?: string): Promise<Record<string, unknown>> {
  if (!fs.existsSync(REAL_SKILLS)) return { skipped: `${REAL_SKILLS} is absent (set OMNIFORGE_SHARED_DIR)` };
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-first-run-"));
  fs.chmodSync(home, 0o700);
  seedSkills(home, fixtureSkillDirs(), SKILLS - 1);
  const ref = seedSkillUnderTest(home);
  const [admin] = await seedUsers(home, 1);
  fs.mkdirSync(path.join(home, "project"));
  let started: Awaited<ReturnType<typeof startConsole>>;
  try {
    started = await startConsole(repo, home, await freePort(), admin!, cpuProf);
  } catch (e) {
    fs.rmSync(home, { recursive: true, force: true });
    throw e;
  }
  const { child, base } = started;
  try {
    const c = new Client(base);
    await c.signIn(admin!.email, admin!.password);
    const loadBefore = loadAverage();
    // The page before the run: the skill's trigger set (the first request after start to read the catalog).
    const openSet = await healthEvery(base, () => c.query("evals.getSet", { ref }, false));
    const trigger = () =>
      healthEvery(base, async () => {
        const { id } = await c.mutate<{ id: number }>("evals.start", { ref, provider: "offline", mode: "tool" });
        for (;;) {
          await new Promise((r) => setTimeout(r, 250));
          const view = await c.query<{ status: string; results: unknown[] }>("evals.get", { id });
          if (view.status !== "done" && view.status !== "running") throw new Error(`the trigger run ended ${view.status}`);
          if (view.status === "done") return;
        }
      });
    const run = await trigger();
    // The same run again on the same console, warm: what the first one should not differ from, at the same load.
    const secondRun = await trigger();
    return { skills: SKILLS, cases: CASES, loadAverage1m5m15m: { before: loadBefore, after: loadAverage() }, openTriggerSet: openSet, run, secondRun, met: run.healthP99Ms < 100 };
  } finally {
    await stopConsole(child);
    fs.rmSync(home, { recursive: true, force: true });
  }
}
