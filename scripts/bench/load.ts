// The console under load (issue 15): the production console (`npm start`'s server) on a free port over a throw-away
// private data home with 600 skills (the real skills of the shared fixtures (OMNIFORGE_SHARED_DIR, default ../shared) copied under several names), 20
// signed-in people: 16 browsing the skill list, skill details and the audit, 4 chatting in the playground with the
// offline provider, each following a turn as the page does (the follow subscription, then one read of the session). Prints requests/s and p50/p99 per procedure, and the skill.list page and /api/health alone.
// Targets: reads p99 < 200 ms, health < 20 ms under load, a skill.list page < 10 ms alone.
// LOAD_BENCH_SECONDS (default 30) sets how long the mix runs; LOAD_BENCH_ROUNDS (default 1) repeats it (medians).
// LOAD_BENCH_CPU_PROF=<folder> runs the console's server process itself under `node --cpu-prof` (not behind
// start.ts and tsx's wrapper), so its CPU profile is written there when the bench stops it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import { freePort, groupCpuMs, startConsole, stopConsole } from "./lib/console-process";
import { Client } from "./lib/load-client";
import { fixtureSkillDirs, REAL_SKILLS, seedSkills, seedUsers } from "./lib/load-seed";
import { mix, r1, summarize, type ProcedureFigures, type SkillRowLite } from "./lib/load-mix";
import { median } from "./lib/stats";

export const name = "load";

const repo = path.resolve(import.meta.dirname, "..", "..");
const SECONDS = Number(process.env.LOAD_BENCH_SECONDS ?? 30);
const ROUNDS = Number(process.env.LOAD_BENCH_ROUNDS ?? 1);
const SKILLS = 600;
const BROWSERS = 16;
const CHATTERS = 4;
const CPU_PROF = process.env.LOAD_BENCH_CPU_PROF;

/** One client alone, one request after another: what a page costs without anyone else. */
async function alone(c: Client, proc: () => Promise<unknown>, n: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await proc();
    times.push(performance.now() - t0);
  }
  return median(times);
}

export async function run(): Promise<Record<string, unknown>> {
  // Young collections on this thread only, as in the console (scripts/serve.ts): helper threads took its cores.
  v8.setFlagsFromString("--no-parallel-scavenge");
  if (!fs.existsSync(REAL_SKILLS)) return { skipped: `${REAL_SKILLS} is absent (set OMNIFORGE_SHARED_DIR)` };
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "omniforge-load-"));
  fs.chmodSync(home, 0o700);
  const skills = seedSkills(home, fixtureSkillDirs(), SKILLS);
  const users = await seedUsers(home, BROWSERS + CHATTERS);
  fs.mkdirSync(path.join(home, "project"));
  const port = await freePort();
  let started: Awaited<ReturnType<typeof startConsole>>;
  try {
    started = await startConsole(repo, home, port, users[0]!, CPU_PROF);
  } catch (e) {
    fs.rmSync(home, { recursive: true, force: true });
    throw e;
  }
  const { child, base, log } = started;
  try {
    const clients = users.map(() => new Client(base));
    await Promise.all(clients.map((c, i) => c.signIn(users[i]!.email, users[i]!.password)));
    const browsers = clients.slice(0, BROWSERS);
    const chatters = clients.slice(BROWSERS);
    // Warm up: every user's index is built once, the build's code paths are compiled.
    await Promise.all(clients.map((c) => c.query("skill.list", { limit: 100 })));
    const first = await browsers[0]!.query<{ total: number; rows: SkillRowLite[] }>("skill.list", { limit: 100 });
    const soloList = await alone(browsers[0]!, () => browsers[0]!.query("skill.list", { limit: 100 }), 40);
    const soloAudit = await alone(browsers[0]!, () => browsers[0]!.query("audit.list", {}), 40);
    const soloInfo = await alone(browsers[0]!, () => browsers[0]!.query("skill.info", { ref: first.rows[3]!.ref }), 40);
    const soloHealth = await alone(browsers[0]!, () => browsers[0]!.health(), 40);

    const rounds: Record<string, ProcedureFigures>[] = [];
    const totals: number[] = [];
    const cpuPerRequest: number[] = [];
    const firstErrors: string[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const cpu0 = groupCpuMs(child.pid!);
      const { rec, elapsed } = await mix(browsers, chatters, SECONDS);
      const cpu1 = groupCpuMs(child.pid!);
      const { perProcedure: out, all, firstErrors: errors } = summarize(rec, elapsed);
      firstErrors.push(...errors);
      rounds.push(out);
      totals.push(all / elapsed);
      if (cpu0 !== null && cpu1 !== null) cpuPerRequest.push((cpu1 - cpu0) / all);
    }
    const labels = [...new Set(rounds.flatMap((r) => Object.keys(r)))].sort();
    const perProcedure: Record<string, unknown> = {};
    for (const l of labels) {
      const of = (k: "rps" | "p50" | "p99" | "n" | "errors") => median(rounds.map((r) => r[l]?.[k] ?? 0));
      perProcedure[l] = { rps: of("rps"), p50Ms: of("p50"), p99Ms: of("p99"), requests: of("n"), errors: of("errors") };
    }
    return {
      skills: first.total,
      seededSkills: skills,
      users: { browsing: BROWSERS, chatting: CHATTERS },
      seconds: SECONDS,
      rounds: ROUNDS,
      requestsPerSecond: r1(median(totals)),
      // The console's CPU (its turn worker included) per request of the mix: the cost, apart from the waiting.
      ...(cpuPerRequest.length ? { serverCpuMsPerRequest: r1(median(cpuPerRequest)) } : {}),
      perProcedure,
      alone: { skillListPageMs: r1(soloList), auditListMs: r1(soloAudit), skillInfoMs: r1(soloInfo), healthMs: r1(soloHealth) },
      ...(firstErrors.length ? { firstErrors: firstErrors.slice(0, 6) } : {}),
      targets: { readsP99Ms: 200, healthP99Ms: 20, skillListAloneMs: 10 },
    };
  } catch (e) {
    process.stderr.write(`load bench: the console said:\n${log.join("").slice(-4000)}\n`);
    throw e;
  } finally {
    await stopConsole(child);
    fs.rmSync(home, { recursive: true, force: true });
  }
}
