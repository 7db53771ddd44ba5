// Two console servers behind one PostgreSQL and one data home (issue #38), set up as docs/deploy.md's team setup
// says (lib/team-setup.ts runs its steps): a throw-away cluster, two production consoles (`npm start`'s script) on
// their own ports, a reverse proxy in front, 20 people signed in through the proxy and spread over the two servers
// (the load mix of load.ts: 16 browsing, 4 chatting in the playground). Then, one after the other:
// - steady: the mix for SERVERS_BENCH_SECONDS (30); errors, the reads' p50/p99 per server with the load average, and
//   how long a skill made on one server takes to be served by the other (target 5 s); what a request costs, in ratios
//   a noisy host does not move: each server's CPU per request, the database statements per request (counted by
//   pg_stat_statements), the bench process's own CPU per request (the clients and the proxy), then each read's
//   statements on its own. SERVERS_BENCH_ONLY=steady stops there; SERVERS_BENCH_CPU_PROF=<folder> profiles both servers;
// - sign-in limit: eleven wrong passwords for one account, alternating servers: the eleventh is refused;
// - SIGKILL: the mix again with two people making skills (one per server); halfway, server A's process group gets
//   SIGKILL. Every write a client saw acknowledged must be in the database (its version row and its audit row),
//   server B's people see no error, the proxy sends everything to B; then A is started again;
// - PostgreSQL stopped for 10 s under the mix: both healths answer 503 while it is down and 200 by themselves after;
//   the errors during the outage are counted, and a further round after it must have none;
// - the audit chain verified after all that (every row, every signed checkpoint).
// Needs a PostgreSQL server (scripts/postgres.ts installs Debian's when missing under npm test; here it is skipped).
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, inArray } from "drizzle-orm";
import { postgresPool } from "../../db/dialect";
import type { PgDb } from "../../db/postgres/client";
import { auditEvents, skillVersions } from "../../db/schema";
import { verifyCopiedChain } from "../../server/cli/commands/db-copy-chain";
import { staleBuild } from "../build-stamp";
import { postgresBinDir, startThrowawayCluster } from "../postgres";
import { groupCpuMs, stopConsole } from "./lib/console-process";
import { Client, Recorder } from "./lib/load-client";
import { mix, r1, summarize, type ProcedureFigures } from "./lib/load-mix";
import { REAL_SKILLS } from "./lib/load-seed";
import { UPSTREAM_HEADER } from "./lib/proxy";
import { roundTripsPerProcedure, StatementCounter } from "./lib/round-trips";
import { benchConnection, createConsoleDatabase, freePort, proxyInFront, sharedDataHome, startTeamServer, type TeamServer } from "./lib/team-setup";

export const name = "servers";

const repo = path.resolve(import.meta.dirname, "..", "..");
const SECONDS = Number(process.env.SERVERS_BENCH_SECONDS ?? 30);
const STEADY_ONLY = process.env.SERVERS_BENCH_ONLY === "steady";
// A folder: each server process runs under `node --cpu-prof` and leaves its profile there (load.ts's LOAD_BENCH_CPU_PROF).
const CPU_PROF = process.env.SERVERS_BENCH_CPU_PROF;
const OUTAGE_SECONDS = 10;
const SKILLS = 600;
const BROWSERS = 16;
const CHATTERS = 4;
const READS = ["skill.list", "skill.info", "audit.list", "playground.get"];
const load1 = () => r1(os.loadavg()[0]!);
const tsx = path.join(repo, "node_modules", ".bin", "tsx");

interface Person {
  client: Client;
  server: number;
}

/** The figures of one server's people in one phase: errors, the reads' p50/p99 (the slowest read), each procedure. */
function serverFigures(rec: Recorder, elapsed: number) {
  const { perProcedure, firstErrors, all } = summarize(rec, elapsed);
  const reads = READS.map((r) => perProcedure[r]).filter((f): f is ProcedureFigures => !!f);
  const errors = Object.values(perProcedure).reduce((a, f) => a + f.errors, 0);
  return {
    requests: all,
    requestsPerSecond: r1(all / elapsed),
    errors,
    readsP50Ms: reads.length ? Math.max(...reads.map((f) => f.p50)) : null,
    readsP99Ms: reads.length ? Math.max(...reads.map((f) => f.p99)) : null,
    perProcedure,
    ...(firstErrors.length ? { firstErrors: firstErrors.slice(0, 4) } : {}),
  };
}

/** The mix on each server's people at once (one recorder per server), and `during` alongside it. */
async function mixOnBoth(people: Person[], seconds: number, opts: { backoffMs?: number } = {}, during: () => Promise<unknown> = async () => {}) {
  const t0 = performance.now();
  const runs = [0, 1].map((s) => {
    const mine = people.filter((p) => p.server === s).map((p) => p.client);
    const chatters = mine.slice(0, CHATTERS / 2);
    return mix(mine.slice(CHATTERS / 2), chatters, seconds, opts);
  });
  const [done] = await Promise.all([Promise.all(runs), during()]);
  const elapsed = (performance.now() - t0) / 1000;
  return { servers: done.map((d) => serverFigures(d.rec, d.elapsed)), elapsed, loadAverage1m: load1() };
}

/** Makes a skill on one server and asks the other for it until it answers; the seconds in between. */
async function propagation(maker: Client, reader: Client, skill: string): Promise<number> {
  await maker.mutate("skill.create", { layer: "enterprise", name: skill, description: `Probe ${skill} for the two-server bench.`, template: "basic" });
  const t0 = performance.now();
  const deadline = Date.now() + 60_000;
  for (;;) {
    const seen = await reader.query("skill.info", { ref: { layer: "enterprise", skill } }, false).then(
      () => true,
      () => false,
    );
    if (seen) return r1((performance.now() - t0) / 1000);
    if (Date.now() > deadline) throw new Error(`servers bench: ${skill} made on one server was not served by the other within 60 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A person making skills on one server without pause; the version ids and names of the makes acknowledged. */
function skillMaker(c: Client, prefix: string, until: () => boolean) {
  const acked: { name: string; versionId: number }[] = [];
  let refused = 0;
  const done = (async () => {
    for (let n = 0; !until(); n++) {
      const name = `${prefix}-${n}`;
      try {
        const r = await c.mutate<{ versionId: number }>("skill.create", { layer: "enterprise", name, description: `Made under load by the bench (${name}).`, template: "basic" });
        acked.push({ name, versionId: r.versionId });
      } catch {
        refused++;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  })();
  return { acked, refused: () => refused, done };
}

/**
 * What the steady phase's requests cost: each server's CPU (its process group) per request, the database's statements
 * per request (both servers together, the propagation probe's few included), and the bench's own CPU per request (the
 * 20 clients and the proxy, which share the cores with what they measure).
 */
async function steadyCost(servers: TeamServer[], cpuBefore: (number | null)[], benchCpuBefore: NodeJS.CpuUsage, figures: { requests: number }[], counter: StatementCounter) {
  const cpu = servers.map((s, i) => {
    const [now, before] = [groupCpuMs(s.child.pid!), cpuBefore[i]];
    return now === null || before === null || before === undefined ? null : r1((now - before) / Math.max(1, figures[i]!.requests));
  });
  const bench = process.cpuUsage(benchCpuBefore);
  const requests = figures.reduce((a, f) => a + f.requests, 0);
  const statements = await counter.count();
  return {
    cpuMsPerRequest: { A: cpu[0], B: cpu[1] },
    benchCpuMsPerRequest: r1((bench.user + bench.system) / 1000 / Math.max(1, requests)),
    statementsPerRequest: r1(statements.calls / Math.max(1, requests)),
    statementsMostCalled: statements.top,
  };
}

export async function run(): Promise<Record<string, unknown>> {
  if (!fs.existsSync(REAL_SKILLS)) return { skipped: `${REAL_SKILLS} is absent (set OMNIFORGE_SHARED_DIR)` };
  if (!postgresBinDir()) return { skipped: "no PostgreSQL server installed (apt-get install postgresql)" };
  // Built once here: two servers finding a stale build would both rebuild at once.
  if (staleBuild(repo)) spawnSync(tsx, ["scripts/start.ts", "--build-only"], { cwd: repo, stdio: "inherit" });
  const cluster = await startThrowawayCluster({ statements: true });
  const servers: TeamServer[] = [];
  let home = "";
  let proxy: Awaited<ReturnType<typeof proxyInFront>> | undefined;
  let counter: StatementCounter | undefined;
  try {
    const databaseUrl = createConsoleDatabase(cluster, randomBytes(12).toString("hex"));
    counter = await StatementCounter.open(cluster, "omniforge");
    // One more account than people: it only ever meets the sign-in limit, with no sign-in of its own counted before.
    const shared = await sharedDataHome(SKILLS, BROWSERS + CHATTERS + 1, databaseUrl);
    home = shared.home;
    const users = shared.users.slice(0, BROWSERS + CHATTERS);
    const limitProbe = shared.users[BROWSERS + CHATTERS]!;
    const ports = [await freePort(), await freePort()];
    proxy = await proxyInFront(ports);
    const team = { home, databaseUrl, publicUrl: proxy.base, admin: users[0]! };
    // One after the other, as a rolling start: the first creates the data home's secrets, the second reads them.
    for (const [i, port] of ports.entries()) servers.push(await startTeamServer(repo, i === 0 ? "A" : "B", port, team, CPU_PROF));

    // Everyone signs in through the proxy (each from an address of their own, as people are), then works on the
    // server given to them: half on A, half on B. A session made through one server is good on the other.
    const people: Person[] = users.map((_, i) => ({ client: new Client(servers[i % 2]!.base, { origin: proxy!.base, forwardedFor: `10.20.0.${i + 1}` }), server: i % 2 }));
    const signIns = new Recorder();
    await Promise.all(
      users.map(async (u, i) => {
        const viaProxy = new Client(proxy!.base, { forwardedFor: `10.20.0.${i + 1}` });
        await signIns.time("sign-in", () => viaProxy.signIn(u.email, u.password));
        people[i]!.client.cookie = viaProxy.cookie;
      }),
    );
    if (signIns.failed) throw new Error(`servers bench: sign-ins failed: ${[...signIns.errors.values()].flat().slice(0, 3).join("; ")}`);
    const signInsPerServer = [...proxy.served];
    // Step 5 of the page: health through the proxy names each server in turn, on the same database and level.
    const viaProxy = new Client(proxy.base);
    const healthViaProxy = await Promise.all([0, 1, 2, 3].map(() => viaProxy.healthReport()));
    const healthCheck = {
      statuses: [...new Set(healthViaProxy.map((h) => h.status))],
      servers: new Set(healthViaProxy.map((h) => h.body.server)).size,
      databaseKinds: [...new Set(healthViaProxy.map((h) => h.body.databaseKind))],
      migrationLevels: [...new Set(healthViaProxy.map((h) => (h.body as { migrationLevel?: number }).migrationLevel))],
    };
    await Promise.all(people.map((p) => p.client.query("skill.list", { limit: 100 })));

    // Steady load, with a skill made on A and looked for on B a third of the way in.
    const admins = [0, 1].map((s) => new Client(servers[s]!.base, { origin: proxy!.base, forwardedFor: `10.21.0.${s + 1}` }));
    for (const a of admins) a.cookie = people[0]!.client.cookie;
    let seenAfterSeconds = NaN;
    await counter.reset();
    const cpuBefore = servers.map((s) => groupCpuMs(s.child.pid!));
    const benchCpuBefore = process.cpuUsage();
    const steady = await mixOnBoth(people, SECONDS, {}, async () => {
      await new Promise((r) => setTimeout(r, (SECONDS * 1000) / 3));
      seenAfterSeconds = await propagation(admins[0]!, admins[1]!, "propagation-probe-a");
    });
    const cost = await steadyCost(servers, cpuBefore, benchCpuBefore, steady.servers, counter);
    const seenBackSeconds = await propagation(admins[1]!, admins[0]!, "propagation-probe-b");
    const { rows } = (await people[0]!.client.query<{ rows: { ref: unknown }[] }>("skill.list", { limit: 1 }))!;
    const session = await people[0]!.client.mutate<{ id: string }>("playground.create", { title: "round trips", provider: "offline" });
    const roundTrips = await roundTripsPerProcedure(counter, people[0]!.client, rows[0]!.ref, session.id, () => groupCpuMs(servers[people[0]!.server]!.child.pid!));
    // Counted: its connection is closed before the phases that kill a server and stop PostgreSQL.
    await counter.close();
    counter = undefined;
    const steadyReport = {
      seconds: SECONDS,
      loadAverage1m: steady.loadAverage1m,
      A: steady.servers[0],
      B: steady.servers[1],
      cost,
      roundTripsPerCall: roundTrips,
      madeOnASeenOnBSeconds: seenAfterSeconds,
      madeOnBSeenOnASeconds: seenBackSeconds,
      targets: { errors: 0, readsP99Ms: 200, seenOnOtherSeconds: 5 },
    };
    if (STEADY_ONLY) return { steady: steadyReport };

    // The sign-in limit across the two real servers: ten wrong passwords alternating, the eleventh refused on
    // either, the right password too; each attempt from another address, so only the account's limit counts.
    const limitOutcomes: string[] = [];
    for (let i = 0; i < 12; i++) {
      const c = new Client(servers[i % 2]!.base, { origin: proxy.base, forwardedFor: `10.22.0.${i + 1}` });
      const r = await c.signInAttempt(limitProbe.email, i < 11 ? "not-the-password" : limitProbe.password);
      limitOutcomes.push(r.ok ? "signed in" : /too many/i.test(r.error) ? "too many attempts" : "wrong password");
    }

    // SIGKILL of A halfway through the mix, with a person on each server making skills.
    let stopMaking = false;
    const makers = [0, 1].map((s) => skillMaker(admins[s]!, `ack-${servers[s]!.name.toLowerCase()}`, () => stopMaking));
    const afterKill = { proxied: 0, byB: 0, failed: 0 };
    const killed = await mixOnBoth(people, SECONDS, { backoffMs: 100 }, async () => {
      await new Promise((r) => setTimeout(r, (SECONDS * 1000) / 2));
      process.kill(-servers[0]!.child.pid!, "SIGKILL");
      // People who come through the proxy now: every request must be answered, by B.
      for (let i = 0; i < 40; i++) {
        const res = await fetch(`${proxy!.base}/api/health`).catch(() => null);
        afterKill.proxied++;
        if (res?.ok && res.headers.get(UPSTREAM_HEADER) === "1") afterKill.byB++;
        else afterKill.failed++;
        await res?.arrayBuffer();
      }
    });
    stopMaking = true;
    await Promise.all(makers.map((m) => m.done));
    const restartT0 = performance.now();
    servers[0] = await startTeamServer(repo, "A", ports[0]!, team, CPU_PROF);
    const restartSeconds = r1((performance.now() - restartT0) / 1000);

    // PostgreSQL stopped for 10 s under the mix: both healths sampled every 200 ms.
    const health = [0, 1].map((s) => new Client(servers[s]!.base));
    const samples: { at: number; codes: number[] }[] = [];
    let pausedAt = 0;
    let resumedAt = 0;
    let recoveredAt = 0;
    let recoveryRounds = 0;
    const outage = await mixOnBoth(people, OUTAGE_SECONDS + 4, { backoffMs: 100 }, async () => {
      await new Promise((r) => setTimeout(r, 2000));
      cluster.pause();
      pausedAt = Date.now();
      while (Date.now() - pausedAt < OUTAGE_SECONDS * 1000) {
        samples.push({ at: Date.now(), codes: await Promise.all(health.map((h) => h.healthReport().then((r) => r.status, () => 0))) });
        await new Promise((r) => setTimeout(r, 200));
      }
      cluster.resume();
      resumedAt = Date.now();
      // Back by themselves: no restart, no action; health asked until both say 200, from the restart on. Asked after
      // the mix had wound down (a chatter's last turn and its follow), this counted that too: the 7-11 s once reported.
      while (!recoveredAt) {
        recoveryRounds++;
        const codes = await Promise.all(health.map((h) => h.healthReport().then((r) => r.status, () => 0)));
        if (codes.every((c) => c === 200)) recoveredAt = Date.now();
        else if (Date.now() - resumedAt > 60_000) throw new Error(`servers bench: health still ${codes.join(", ")} a minute after PostgreSQL came back`);
        else await new Promise((r) => setTimeout(r, 100));
      }
    });
    const after = await mixOnBoth(people, Math.max(10, SECONDS / 3));
    const downSamples = samples.filter((s) => s.at - pausedAt > 1000);

    // Stopped as an operator would (SIGTERM: each flushes its audit), then the database is checked on its own.
    for (const s of servers) await stopConsole(s.child);
    const db = benchConnection(databaseUrl, home);
    try {
      const acked = makers.flatMap((m) => m.acked);
      const versions = acked.length ? await db.select({ id: skillVersions.id }).from(skillVersions).where(inArray(skillVersions.id, acked.map((a) => a.versionId))) : [];
      const audited = acked.length
        ? await db.select({ skill: auditEvents.skill }).from(auditEvents).where(and(eq(auditEvents.type, "skill_saved"), inArray(auditEvents.skill, acked.map((a) => a.name))))
        : [];
      const auditedNames = new Set(audited.map((r) => r.skill));
      const chain = await verifyCopiedChain(db as unknown as PgDb, home);
      return {
        setup: { servers: 2, database: "PostgreSQL (throw-away cluster)", people: users.length, skills: SKILLS, signInsThroughProxyPerServer: signInsPerServer, healthThroughProxy: healthCheck },
        steady: steadyReport,
        signInLimit: { attempts: limitOutcomes, expected: "10 wrong password, then too many attempts (the 11th on B, the 12th with the right password on A)" },
        sigkill: {
          loadAverage1m: killed.loadAverage1m,
          errorsOnA: killed.servers[0]!.errors,
          errorsOnB: killed.servers[1]!.errors,
          BreadsP99Ms: killed.servers[1]!.readsP99Ms,
          ...(killed.servers[1]!.firstErrors ? { firstErrorsOnB: killed.servers[1]!.firstErrors } : {}),
          proxyAfterKill: afterKill,
          writesAcknowledged: acked.length,
          writesAcknowledgedByA: makers[0]!.acked.length,
          versionRowsFound: versions.length,
          auditRowsFound: auditedNames.size,
          withoutVersionRow: acked.filter((a) => !versions.some((v) => v.id === a.versionId)).map((a) => a.name).slice(0, 10),
          withoutAuditRow: acked.filter((a) => !auditedNames.has(a.name)).map((a) => a.name).slice(0, 10),
          makesRefused: makers.map((m) => m.refused()),
          killedAfterSeconds: SECONDS / 2,
          restartOfASeconds: restartSeconds,
        },
        postgresStopped: {
          seconds: OUTAGE_SECONDS,
          healthSamplesWhileDown: downSamples.length,
          both503WhileDown: downSamples.filter((s) => s.codes.every((c) => c === 503)).length,
          otherCodesWhileDown: [...new Set(downSamples.flatMap((s) => s.codes).filter((c) => c !== 503))],
          recoveredSecondsAfterRestart: r1((recoveredAt - resumedAt) / 1000),
          healthRoundsUntilBoth200: recoveryRounds,
          errorsDuringOutage: outage.servers.map((s) => s.errors),
          errorsAfter: after.servers.map((s) => s.errors),
          readsP99MsAfter: after.servers.map((s) => s.readsP99Ms),
          ...(after.servers.some((s) => s.firstErrors) ? { firstErrorsAfter: after.servers.flatMap((s) => s.firstErrors ?? []) } : {}),
        },
        auditChain: chain.ok ? { ok: true, rows: chain.count, signedCheckpointsMatching: chain.checkpoints } : chain,
      };
    } finally {
      await postgresPool(db)!.end();
    }
  } catch (e) {
    for (const s of servers) process.stderr.write(`servers bench: server ${s.name} said:\n${s.log.join("").slice(-3000)}\n`);
    throw e;
  } finally {
    for (const s of servers) await stopConsole(s.child).catch(() => {});
    await proxy?.close();
    await counter?.close().catch(() => {});
    cluster.stop();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  }
}
