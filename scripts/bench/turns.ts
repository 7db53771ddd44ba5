// What a playground turn costs the server that runs it (issue #38): one production console on a throw-away PostgreSQL
// over the team data home (600 skills), 4 people chatting with the offline provider and nobody else, each sending,
// following the turn as the page does, then reading the session and the list. Reported per turn: the server's CPU
// (the console and its turn worker, their process group) and the database's statements (pg_stat_statements), each
// less what the idle server does by itself in as long (measured first), and the statements most called.
// TURNS_BENCH_SECONDS (20) sets how long the chat runs, TURNS_BENCH_ROUNDS (3) how many times (medians).
// TURNS_BENCH_CPU_PROF=<folder> runs the console under `node --cpu-prof` (its turn worker inherits the flag) and
// reads both profiles, the chat's rounds only, as the turn's parts (lib/profile-parts.ts), in ms per turn.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { postgresBinDir, startThrowawayCluster } from "../postgres";
import { freePort, groupCpuMs, startConsole, stopConsole } from "./lib/console-process";
import { Client } from "./lib/load-client";
import { mix, r1 } from "./lib/load-mix";
import { REAL_SKILLS } from "./lib/load-seed";
import { median } from "./lib/stats";
import { StatementCounter } from "./lib/round-trips";
import { createConsoleDatabase, sharedDataHome, teamServerSettings } from "./lib/team-setup";
import { profileParts, profilerClockUs } from "./lib/profile-parts";

export const name = "turns";

const repo = path.resolve(import.meta.dirname, "..", "..");
const SECONDS = Number(process.env.TURNS_BENCH_SECONDS ?? 20);
const ROUNDS = Number(process.env.TURNS_BENCH_ROUNDS ?? 3);
const IDLE_SECONDS = 5;
const SKILLS = 600;
const CHATTERS = 4;
const CPU_PROF = process.env.TURNS_BENCH_CPU_PROF;

export async function run(): Promise<Record<string, unknown>> {
  if (!fs.existsSync(REAL_SKILLS)) return { skipped: `${REAL_SKILLS} is absent (set OMNIFORGE_SHARED_DIR)` };
  if (!postgresBinDir()) return { skipped: "no PostgreSQL server installed (apt-get install postgresql)" };
  const profDir = CPU_PROF ? path.resolve(CPU_PROF) : undefined;
  if (profDir) fs.mkdirSync(profDir, { recursive: true });
  const profilesBefore = new Set(profDir ? fs.readdirSync(profDir) : []);
  const cluster = await startThrowawayCluster({ statements: true });
  let home = "";
  let counter: StatementCounter | undefined;
  let child: Awaited<ReturnType<typeof startConsole>>["child"] | undefined;
  try {
    const databaseUrl = createConsoleDatabase(cluster, randomBytes(12).toString("hex"));
    counter = await StatementCounter.open(cluster, "omniforge");
    const shared = await sharedDataHome(SKILLS, CHATTERS, databaseUrl);
    home = shared.home;
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const started = await startConsole(repo, home, port, shared.users[0]!, profDir, teamServerSettings({ home, databaseUrl, publicUrl: base }, port));
    child = started.child;
    const pid = child.pid!;
    const chatters = shared.users.map(() => new Client(base));
    await Promise.all(chatters.map((c, i) => c.signIn(shared.users[i]!.email, shared.users[i]!.password)));
    // Warm-up: the turn worker started, every person's index built, the code compiled.
    await mix([], chatters, 5);

    // What the server does by itself (the index's poll, the jobs), to take out of the rounds' figures.
    await counter.reset();
    const idleCpu0 = groupCpuMs(pid);
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    const idleCpu1 = groupCpuMs(pid);
    const idleStatementsPerSecond = (await counter.count()).calls / IDLE_SECONDS;
    const idleCpuMsPerSecond = idleCpu0 === null || idleCpu1 === null ? 0 : (idleCpu1 - idleCpu0) / IDLE_SECONDS;

    const rounds: { turns: number; cpuMsPerTurn: number | null; statementsPerTurn: number; turnP50Ms: number; errors: number; loadAverage1m: number }[] = [];
    let top: { calls: number; query: string }[] = [];
    const window = { from: profilerClockUs(), to: 0 };
    let turnsInWindow = 0;
    for (let r = 0; r < ROUNDS; r++) {
      await counter.reset();
      const cpu0 = groupCpuMs(pid);
      const { rec, elapsed } = await mix([], chatters, SECONDS);
      const cpu1 = groupCpuMs(pid);
      const statements = await counter.count("omniforge", 20);
      const times = [...(rec.times.get("turn (send to done)") ?? [])].sort((a, b) => a - b);
      const turns = Math.max(1, times.length);
      turnsInWindow += times.length;
      const errors = [...rec.errors.values()].reduce((a, e) => a + e.length, 0);
      rounds.push({
        turns: times.length,
        cpuMsPerTurn: cpu0 === null || cpu1 === null ? null : r1((cpu1 - cpu0 - idleCpuMsPerSecond * elapsed) / turns),
        statementsPerTurn: r1((statements.calls - idleStatementsPerSecond * elapsed) / turns),
        turnP50Ms: Math.round(median(times)),
        errors,
        loadAverage1m: r1(os.loadavg()[0]!),
      });
      if (r === ROUNDS - 1) top = statements.top.map((t) => ({ calls: r1(t.calls / turns), query: t.query }));
    }
    window.to = profilerClockUs();
    const cpus = rounds.map((r) => r.cpuMsPerTurn).filter((c): c is number => c !== null);
    const report: Record<string, unknown> = {
      skills: SKILLS,
      chatters: CHATTERS,
      seconds: SECONDS,
      idle: { cpuMsPerSecond: r1(idleCpuMsPerSecond), statementsPerSecond: r1(idleStatementsPerSecond) },
      rounds,
      cpuMsPerTurn: cpus.length ? median(cpus) : null,
      statementsPerTurn: median(rounds.map((r) => r.statementsPerTurn)),
      statementsPerTurnMostCalled: top,
    };
    if (profDir) {
      await stopConsole(child);
      const files = fs.readdirSync(profDir).filter((f) => f.endsWith(".cpuprofile") && !profilesBefore.has(f));
      // The console's profile carries its pid in the name; the other one is its turn worker's.
      report.profilePartsMsPerTurn = Object.fromEntries(
        files.map((f) => {
          const parts = profileParts(path.join(profDir, f), window);
          const perTurn = (ms: number) => r1(ms / Math.max(1, turnsInWindow));
          return [
            f.includes(`.${pid}.`) ? `console (${f})` : `turn worker (${f})`,
            { busy: perTurn(parts.busyMs), parts: Object.fromEntries(Object.entries(parts.parts).map(([k, v]) => [k, perTurn(v)])), selfByFile: parts.selfMsByFile.map((s) => ({ where: s.where, ms: perTurn(s.ms) })) },
          ];
        }),
      );
    }
    return report;
  } finally {
    if (child) await stopConsole(child).catch(() => {});
    await counter?.close().catch(() => {});
    cluster.stop();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  }
}
